// CMalloc: glibc's <malloc.h> calls focusd uses, which Swift's Glibc module does not export.
#ifndef CMALLOC_H
#define CMALLOC_H

#include <malloc.h>
// setxattr/removexattr (the socket's ACL for read-only users), which Glibc does not export either.
#include <sys/xattr.h>

/// Returns freed heap memory to the kernel (malloc_trim(0)); 1 when some was released.
static inline int cmalloc_trim(void) { return malloc_trim(0); }

/// One malloc arena for every thread (mallopt(M_ARENA_MAX, 1)): the worker thread that parses
/// large messages and runs Lint would otherwise get an arena of its own, which kept ~1.5 MiB
/// more resident in an idle daemon.
static inline int cmalloc_single_arena(void) { return mallopt(M_ARENA_MAX, 1); }

#endif
