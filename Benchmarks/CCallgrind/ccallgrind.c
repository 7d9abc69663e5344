#include "ccallgrind.h"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#include <valgrind/valgrind.h>

int ccallgrind_running(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
void ccallgrind_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
#else
int ccallgrind_running(void) { return 0; }
void ccallgrind_dump(const char *label) { (void)label; }
#endif
