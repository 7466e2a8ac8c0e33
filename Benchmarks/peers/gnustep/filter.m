// The GNUstep side of peers/compare.py: NSPredicate from GNUstep Base (the
// other NSPredicate on Linux) filtering the same people, loaded from the JSON
// array `EvalProfile --json` writes as NSDictionary/NSArray/NSString/NSNumber.
//
//   gcc -x objective-c -std=gnu99 -O2 $(gnustep-config --objc-flags) filter.m -o filter $(gnustep-config --base-libs)
//   filter -data people.json -case 5 -format 'age > 30' -reps 3 [-samples] [-parse]
#import <Foundation/Foundation.h>
#include <stdio.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, const char **argv) {
    // GCC's Objective-C has no @autoreleasepool blocks or literals.
    NSAutoreleasePool *outer = [[NSAutoreleasePool alloc] init];
    {
        NSString *data = nil, *format = nil;
        int number = 1, reps = 3, samples = 0, parse = 0;
        for (int i = 1; i < argc; i++) {
            const char *a = argv[i];
            if (!strcmp(a, "-data") && i + 1 < argc) data = [NSString stringWithUTF8String:argv[++i]];
            else if (!strcmp(a, "-format") && i + 1 < argc) format = [NSString stringWithUTF8String:argv[++i]];
            else if (!strcmp(a, "-case") && i + 1 < argc) number = atoi(argv[++i]);
            else if (!strcmp(a, "-reps") && i + 1 < argc) reps = atoi(argv[++i]);
            else if (!strcmp(a, "-samples")) samples = 1;
            else if (!strcmp(a, "-parse")) parse = 1;
            else { fprintf(stderr, "unknown argument %s\n", a); return 2; }
        }
        if (format == nil || (!parse && data == nil)) {
            fprintf(stderr, "usage: filter -format F (-data FILE | -parse) [-case N] [-reps R] [-samples]\n");
            return 2;
        }
        NSArray *people = [NSArray array];
        if (!parse) {
            NSData *bytes = [NSData dataWithContentsOfFile:data];
            NSError *error = nil;
            people = bytes ? [NSJSONSerialization JSONObjectWithData:bytes options:0 error:&error] : nil;
            if (![people isKindOfClass:[NSArray class]]) {
                fprintf(stderr, "cannot read %s\n", [data UTF8String]);
                return 1;
            }
        }
        NSPredicate *predicate = [NSPredicate predicateWithFormat:format];
        const int parses = 10000;
        NSUInteger matches = 0;
        NSMutableString *all = [NSMutableString string];
        double total = 0;
        // A warm-up, then the timed repetitions.
        for (int r = -1; r < reps; r++) {
            double start = now_ns(), per;
            NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
            {
                if (parse) {
                    for (int i = 0; i < parses; i++) {
                        NSAutoreleasePool *inner = [[NSAutoreleasePool alloc] init];
                        [NSPredicate predicateWithFormat:format];
                        [inner drain];
                    }
                    matches = parses;
                    per = parses;
                } else {
                    matches = [[people filteredArrayUsingPredicate:predicate] count];
                    per = (double)[people count];
                }
            }
            [pool drain];
            double ns = (now_ns() - start) / (per > 0 ? per : 1);
            if (r < 0) continue;
            total += ns;
            [all appendFormat:@" %.2f", ns];
        }
        printf("case %d gnustep n=%lu reps=%d matches=%lu %.1f %s: %s\n", number, (unsigned long)[people count], reps,
               (unsigned long)matches, total / reps, parse ? "ns/parse" : "ns/object", [format UTF8String]);
        if (samples) printf("samples%s\n", [all UTF8String]);
    }
    [outer drain];
    return 0;
}
