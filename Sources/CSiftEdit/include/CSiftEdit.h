#ifndef CSIFTEDIT_H
#define CSIFTEDIT_H

/// Line editing for the REPL, on libedit's readline interface. C globals
/// (rl_* variables, the completion word list) stay on this side.

/// Sets the locale from the environment (libedit drops non-ASCII input
/// without it), names the program and installs word completion.
void sift_edit_setup(const char *program);

/// Reads a line with editing; NULL at end of input. The caller frees it.
char *sift_edit_readline(const char *prompt);

/// Adds a line to the in-memory history.
void sift_edit_add_history(const char *line);

/// Loads history from `path` (0 on success).
int sift_edit_read_history(const char *path);

/// Writes history to `path`, keeping at most `limit` entries (0 on success).
int sift_edit_write_history(const char *path, int limit);

/// Replaces the words offered by tab completion.
void sift_edit_set_words(const char *const *words, int count);

/// Ctrl-C while a piece of work runs: the pipe SIGINT's handler writes a
/// byte to, made once for the process and never closed. Returns its read
/// end, or -1 on failure. (A dispatch signal source does not do: on Linux it
/// reads a signalfd, which sees only signals every thread blocks, and NIO's
/// threads do not.) Not thread-safe, as the two below: one caller at a time.
int sift_interrupts_open(void);

/// From now on SIGINT writes a byte to the pipe of `sift_interrupts_open`
/// instead of ending the process (0), or -1 on failure, SIGINT then left as
/// it was.
int sift_interrupts_catch(void);

/// Puts SIGINT back as it was before `sift_interrupts_catch`.
void sift_interrupts_release(void);

/// `sift filter` allocates a buffer of about a chunk (1 MiB) for each chunk
/// it reads and frees it once the chunk is tested: this keeps such freed
/// memory in the process for the next chunk (glibc's mmap threshold 32 MiB,
/// trim threshold 64 MiB, top pad 16 MiB, which a thread's arena keeps when
/// it trims), where glibc would give it back to the kernel and fault it in
/// again. Nothing elsewhere than with glibc.
void sift_memory_keep_chunks(void);

#endif
