#include "CSiftEdit.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <editline/readline.h>

static char **words = NULL;
static int word_count = 0;

static char *next_word(const char *text, int state) {
    static int index;
    static size_t length;
    if (state == 0) {
        index = 0;
        length = strlen(text);
    }
    while (index < word_count) {
        const char *word = words[index++];
        if (strncmp(word, text, length) == 0) return strdup(word);
    }
    return NULL;
}

static char **complete(const char *text, int start, int end) {
    (void)start;
    (void)end;
    rl_attempted_completion_over = 1;
    return rl_completion_matches(text, next_word);
}

void sift_edit_setup(const char *program) {
    setlocale(LC_ALL, "");
    static char name[64];
    snprintf(name, sizeof name, "%s", program);
    rl_readline_name = name;
    /* Key paths keep their dots, @count its at-sign and :commands their colon. */
    static char breaks[] = " \t\n\"'()[]{},=<>!&|+-*/%";
    rl_basic_word_break_characters = breaks;
    rl_completer_word_break_characters = breaks;
    rl_attempted_completion_function = complete;
}

char *sift_edit_readline(const char *prompt) { return readline(prompt); }

void sift_edit_add_history(const char *line) { add_history(line); }

int sift_edit_read_history(const char *path) { return read_history(path); }

int sift_edit_write_history(const char *path, int limit) {
    stifle_history(limit);
    return write_history(path);
}

void sift_edit_set_words(const char *const *list, int count) {
    for (int i = 0; i < word_count; i++) free(words[i]);
    free(words);
    words = NULL;
    word_count = 0;
    if (count <= 0) return;
    words = calloc((size_t)count, sizeof(char *));
    if (words == NULL) return;
    for (int i = 0; i < count; i++) {
        words[i] = strdup(list[i]);
        if (words[i] == NULL) break;
        word_count = i + 1;
    }
}
