// CMalloc: glibc's <malloc.h> calls focusd uses, which Swift's Glibc module does not export.
#ifndef CMALLOC_H
#define CMALLOC_H

#include <malloc.h>
// setxattr/removexattr (the socket's ACL for read-only users), which Glibc does not export either.
#include <sys/xattr.h>
// pidfd_open(2) (a browser's exit waited for in poll(2)): a raw syscall, which Swift cannot call
// (syscall(2) is variadic) and glibc's <sys/pidfd.h> does not reach Swift's Glibc module.
#include <sys/syscall.h>
#include <unistd.h>

/// A pidfd of process `pid` (readable once it exits), or -1 with errno set.
static inline int cpidfd_open(int pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

/// Returns freed heap memory to the kernel (malloc_trim(0)); 1 when some was released.
static inline int cmalloc_trim(void) { return malloc_trim(0); }

/// At most four malloc arenas (mallopt(M_ARENA_MAX, 4)): enough for the main thread, the event
/// loop and the worker thread, which start first, to have one each. With one arena for all,
/// the loop waited on the arena's lock whenever the worker (at nice 10, so often preempted
/// while holding it) built, freed or trimmed a big scene or message: the loop's stalls of
/// 20-70 ms in ServiceBench --hostile; glibc's default, 8 per core, is more than focusd's
/// threads need.
/// And a fixed trim threshold of 128 KiB (mallopt(M_TRIM_THRESHOLD)): malloc_trim does not
/// shrink the top of a thread's own arena, and glibc's dynamic threshold (twice the largest
/// mmapped block freed: 18 MiB after a 9 MiB message) let each arena keep megabytes there;
/// ServiceBench's memory figure (10,000-node scene, 8 monitors) was 19.8 MiB with four
/// arenas, 16.3 MiB with this, 16.5 MiB with one arena. (Fixing it also fixes the mmap
/// threshold at 128 KiB: larger blocks are mapped and unmapped on their own.)
static inline void cmalloc_configure_arenas(void) {
    mallopt(M_ARENA_MAX, 4);
    mallopt(M_TRIM_THRESHOLD, 128 << 10);
}

#endif
