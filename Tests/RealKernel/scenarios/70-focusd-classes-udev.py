# summary: with udevd, focusd classifies each simulated device and each one moves focus in the demo scene
# udev: required
# needs: focusd
# timeout: 180
from realkernel import EXPECTED_CLASS, Focusd, each_class_moves_focus, scenario


def body():
    focusd = Focusd()
    result = each_class_moves_focus(focusd, list(EXPECTED_CLASS))
    focusd.stop()
    return result


scenario(body)
