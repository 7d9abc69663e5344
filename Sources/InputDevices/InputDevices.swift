// Linux input devices: discovery, classification, readers.
