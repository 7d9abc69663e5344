print("FocusBench: not yet")
