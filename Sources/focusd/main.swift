print("focusd: not yet")
