#include "CSiftEdit.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* SIGINT's disposition is the process's: the Swift side (InterruptHub)
   calls these under one lock. The pipe is made once and never closed, so
   that the handler, which may run on any thread at any time, never writes
   to a descriptor that has been closed and reused. */
static volatile sig_atomic_t interrupt_write_end = -1;
static struct sigaction interrupt_previous;

/* Only async-signal-safe calls here: one byte into the pipe (dropped if the
   pipe is full, as one pending interrupt is enough). */
static void on_interrupt(int signo) {
    (void)signo;
    char byte = 1;
    ssize_t written = write(interrupt_write_end, &byte, 1);
    (void)written;
}

int sift_interrupts_open(void) {
    int ends[2];
    if (pipe(ends) != 0) return -1;
    fcntl(ends[0], F_SETFD, FD_CLOEXEC);
    fcntl(ends[1], F_SETFD, FD_CLOEXEC);
    fcntl(ends[1], F_SETFL, O_NONBLOCK);
    interrupt_write_end = ends[1];
    return ends[0];
}

int sift_interrupts_catch(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(SIGINT, &action, &interrupt_previous) == 0 ? 0 : -1;
}

void sift_interrupts_release(void) {
    sigaction(SIGINT, &interrupt_previous, NULL);
}
