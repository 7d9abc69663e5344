#pragma once
// sd-bus (libsystemd), for the atspi adapter's accessibility bus. Only AtspiBus/SdBus.swift uses it.
#include <systemd/sd-bus.h>
#include <poll.h>
