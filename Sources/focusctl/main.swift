print("focusctl: not yet")
