// The wrappers are static inline in include/CInputLinux.h; SwiftPM needs one source file.
#include "CInputLinux.h"
