#include "CLibinputLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// libinput's soname since 1.0 (2015); the unversioned name is the fallback on systems that only
// ship the development symlink.
static const char *const sonames[] = {"libinput.so.10", "libinput.so"};

static struct focusd_libinput table;
static const struct focusd_libinput *loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handle = NULL;
    for (size_t i = 0; i < sizeof sonames / sizeof sonames[0] && !handle; i++) {
        handle = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (!handle) {
        snprintf(failure, sizeof failure, "cannot load libinput: %s", dlerror());
        return;
    }
#define FOCUSD_LIBINPUT_RESOLVE(name)                                                       \
    table.name = (__typeof__(&name))dlsym(handle, #name);                                   \
    if (!table.name) {                                                                      \
        snprintf(failure, sizeof failure, "libinput has no %s: %s", #name, dlerror());      \
        return;                                                                             \
    }
    FOCUSD_LIBINPUT_FUNCTIONS(FOCUSD_LIBINPUT_RESOLVE)
#undef FOCUSD_LIBINPUT_RESOLVE
    loaded = &table;
}

const struct focusd_libinput *focusd_libinput_load(char *error, unsigned long error_size) {
    pthread_once(&once, load);
    if (!loaded && error && error_size > 0) {
        snprintf(error, error_size, "%s", failure);
    }
    return loaded;
}
