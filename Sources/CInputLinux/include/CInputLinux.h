// CInputLinux: the Linux calls InputDevices needs that Swift's Glibc module does not export
// (<sys/epoll.h>, <sys/timerfd.h>, <sys/eventfd.h>, and the evdev ioctls of <linux/input.h>),
// as static inline wrappers over libc alone (no system library). Each returns what the call
// returns (-1 and errno on failure), so Swift's one errno helper (Posix) handles them.
#ifndef CINPUTLINUX_H
#define CINPUTLINUX_H

#include <linux/input.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <linux/uinput.h>
#include <sys/timerfd.h>
#include <time.h>

/// The most readiness reports one `cinput_epoll_wait` returns.
#define CINPUT_EPOLL_MAX_EVENTS 64

/// epoll_create1(EPOLL_CLOEXEC).
static inline int cinput_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/// Watches `fd` for EPOLLIN; readiness reports carry `token`.
static inline int cinput_epoll_add(int epfd, int fd, uint64_t token) {
    struct epoll_event event = {.events = EPOLLIN, .data = {.u64 = token}};
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

/// Stops watching `fd`.
static inline int cinput_epoll_remove(int epfd, int fd) {
    struct epoll_event event = {0};
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &event);
}

/// epoll_wait into two parallel arrays of `max` entries (at most CINPUT_EPOLL_MAX_EVENTS):
/// each report's token and ready bits. Returns the count, or -1 with errno.
static inline int cinput_epoll_wait(int epfd, uint64_t *tokens, uint32_t *events, int max, int timeout_ms) {
    struct epoll_event buffer[CINPUT_EPOLL_MAX_EVENTS];
    if (max > CINPUT_EPOLL_MAX_EVENTS) max = CINPUT_EPOLL_MAX_EVENTS;
    int count = epoll_wait(epfd, buffer, max, timeout_ms);
    for (int i = 0; i < count; i++) {
        tokens[i] = buffer[i].data.u64;
        events[i] = buffer[i].events;
    }
    return count;
}

/// The readiness bits epoll reports.
static const uint32_t cinput_epoll_in = EPOLLIN;
static const uint32_t cinput_epoll_err = EPOLLERR;
static const uint32_t cinput_epoll_hup = EPOLLHUP;

/// A non-blocking, close-on-exec CLOCK_MONOTONIC timerfd, disarmed.
static inline int cinput_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}

/// Arms `fd` once at the absolute monotonic time `usec` (> 0), or disarms it (`usec` <= 0).
static inline int cinput_timerfd_arm(int fd, int64_t usec) {
    struct itimerspec spec = {0};
    if (usec > 0) {
        spec.it_value.tv_sec = (time_t)(usec / 1000000);
        spec.it_value.tv_nsec = (long)(usec % 1000000) * 1000;
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

/// A non-blocking, close-on-exec eventfd counting from 0.
static inline int cinput_eventfd_create(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

/// EVIOCGKEY: the kernel's current key state of an evdev node, one bit per key code, into
/// `bits` (`length` bytes; (KEY_MAX + 1) / 8 covers every key). Returns the bytes written or -1.
static inline int cinput_evdev_get_keys(int fd, uint8_t *bits, size_t length) {
    return ioctl(fd, EVIOCGKEY(length), bits);
}

/// UI_SET_PHYS on a /dev/uinput descriptor before the device is created (libevdev's uinput
/// creation does not pass the phys on). Returns 0 or -1 with errno. Used by focusd-testdevice.
static inline int cinput_uinput_set_phys(int fd, const char *phys) { return ioctl(fd, UI_SET_PHYS, phys); }

/// The size of a full key bitmap.
static const size_t cinput_key_bitmap_bytes = (KEY_MAX + 1 + 7) / 8;

#endif
