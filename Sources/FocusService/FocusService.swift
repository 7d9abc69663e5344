// Wires engine, mapping, devices and the Varlink interfaces together.
