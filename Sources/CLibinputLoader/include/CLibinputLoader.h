// libinput, loaded on first use instead of linked.
//
// libinput pulls in libwacom, GLib and GObject: 1.3 MiB of resident memory in a daemon that, on a
// TV box, usually has no touch surface to read. focusd loads it when the first touch surface
// appears. The table's field types are taken from libinput's own header with __typeof__, so the
// compiler checks every call against libinput's real prototypes; nothing is declared by hand.
#pragma once
#include <libinput.h>

#define FOCUSD_LIBINPUT_FUNCTIONS(X) \
    X(libinput_path_create_context) \
    X(libinput_path_add_device) \
    X(libinput_path_remove_device) \
    X(libinput_unref) \
    X(libinput_get_fd) \
    X(libinput_dispatch) \
    X(libinput_get_event) \
    X(libinput_event_destroy) \
    X(libinput_event_get_type) \
    X(libinput_event_get_device) \
    X(libinput_event_get_gesture_event) \
    X(libinput_event_get_pointer_event) \
    X(libinput_event_gesture_get_time_usec) \
    X(libinput_event_gesture_get_finger_count) \
    X(libinput_event_gesture_get_dx_unaccelerated) \
    X(libinput_event_gesture_get_dy_unaccelerated) \
    X(libinput_event_gesture_get_cancelled) \
    X(libinput_event_pointer_get_time_usec) \
    X(libinput_event_pointer_get_dx_unaccelerated) \
    X(libinput_event_pointer_get_dy_unaccelerated) \
    X(libinput_event_pointer_get_button_state) \
    X(libinput_device_ref) \
    X(libinput_device_unref) \
    X(libinput_device_config_tap_set_enabled)

/// Every libinput function focusd calls.
struct focusd_libinput {
#define FOCUSD_LIBINPUT_FIELD(name) __typeof__(&name) _Nonnull name;
    FOCUSD_LIBINPUT_FUNCTIONS(FOCUSD_LIBINPUT_FIELD)
#undef FOCUSD_LIBINPUT_FIELD
};

/// Loads libinput (once; later calls return the same table) and resolves every function.
/// Returns NULL when it cannot, with the reason in `error` (dlerror's text).
const struct focusd_libinput *_Nullable focusd_libinput_load(char *_Nullable error, unsigned long error_size);
