// The Go side of peers/compare.py: the five predicates of EvalBenchmarks
// in antonmedv/expr (Debian's golang-github-antonmedv-expr-dev, 1.8.9),
// compiled once against a typed environment and run over the same people
// (the JSON array `EvalProfile --json` writes).
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o goexpr .
//	goexpr -data people.json -case 5 -reps 5 [-samples] [-parse]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/antonmedv/expr"
	"github.com/antonmedv/expr/vm"
)

type Author struct {
	Name string `json:"name"`
}

type Person struct {
	Name   string   `json:"name"`
	Age    int      `json:"age"`
	Score  float64  `json:"score"`
	Tags   []string `json:"tags"`
	Author Author   `json:"author"`
}

// Lower is callable from expressions: expr 1.8 has no lowercase function.
func (Person) Lower(s string) string { return strings.ToLower(s) }

// The predicates as expr writes them. (3) folds case only: the Go standard
// library has no diacritic folding, so it matches fewer people than Sift.
var cases = map[int]string{
	1: `Age > 30`,
	2: `Lower(Name) startsWith "ab"`,
	3: `Lower(Name) contains "ery"`,
	4: `"x" in Tags`,
	5: `Age > 30 && Score < 0.5 || Author.Name == "Ann"`,
}

func main() {
	data := flag.String("data", "", "the people as a JSON array")
	number := flag.Int("case", 1, "1-5")
	reps := flag.Int("reps", 5, "repetitions")
	samples := flag.Bool("samples", false, "print each repetition")
	parse := flag.Bool("parse", false, "time compiling the expression instead")
	flag.Parse()
	source, ok := cases[*number]
	if !ok {
		fmt.Fprintln(os.Stderr, "no case", *number)
		os.Exit(2)
	}
	var people []Person
	if !*parse {
		bytes, err := os.ReadFile(*data)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := json.Unmarshal(bytes, &people); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	program, err := expr.Compile(source, expr.Env(Person{}), expr.AsBool())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	count := func(p *vm.Program) int {
		n := 0
		for i := range people {
			out, err := expr.Run(p, people[i])
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if out.(bool) {
				n++
			}
		}
		return n
	}
	const parses = 10000
	body := func() int { return count(program) }
	per := float64(len(people))
	unit := "ns/object"
	if *parse {
		body = func() int {
			for i := 0; i < parses; i++ {
				if _, err := expr.Compile(source, expr.Env(Person{}), expr.AsBool()); err != nil {
					os.Exit(1)
				}
			}
			return parses
		}
		per = parses
		unit = "ns/parse"
	}
	matches := body()
	var all []string
	total := 0.0
	for r := 0; r < *reps; r++ {
		start := time.Now()
		matches = body()
		ns := float64(time.Since(start).Nanoseconds()) / per
		total += ns
		all = append(all, fmt.Sprintf("%.2f", ns))
	}
	fmt.Printf("case %d goexpr n=%d reps=%d matches=%d %.1f %s: %s\n", *number, len(people), *reps, matches,
		total/float64(*reps), unit, source)
	if *samples {
		fmt.Println("samples " + strings.Join(all, " "))
	}
}
