#!/usr/bin/python3
"""A GTK 3 application for the atspi adapter's tests: buttons in a grid, a text entry, a spin
button, a slider, a toggle, a list box (a section), a modal dialog opened by a button, and a
button added at run time. It prints one line per thing a test waits for on stdout
(`clicked NAME`, `toggled on|off`, `spin VALUE`, `scale VALUE`, `ready`) and obeys commands on
stdin (`add`, `focus NAME`, `dialog`, `quit`) so a test can change the application while the
adapter runs."""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def say(line):
    print(line, flush=True)


if "--many" in sys.argv:
    # A window of N buttons in a grid (the benchmark's 2,000-node window).
    count = int(sys.argv[sys.argv.index("--many") + 1])
    many = Gtk.Window(title="focusd atspi many")
    many.set_default_size(1280, 800)
    many.connect("destroy", Gtk.main_quit)
    grid = Gtk.Grid()
    for i in range(count):
        b = Gtk.Button(label=str(i))
        grid.attach(b, i % 50, i // 50, 1, 1)
    many.add(grid)
    many.show_all()
    GLib.idle_add(lambda: say("ready") and False)
    Gtk.main()
    sys.exit(0)

win = Gtk.Window(title="focusd atspi fixture")
win.set_default_size(640, 480)
win.connect("destroy", Gtk.main_quit)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8)
win.add(box)

buttons = {}
grid = Gtk.Grid(column_spacing=8, row_spacing=8)
box.pack_start(grid, False, False, 0)
for i, name in enumerate(["one", "two", "three", "four"]):
    b = Gtk.Button(label=name)
    b.connect("clicked", lambda _b, n=name: say(f"clicked {n}"))
    grid.attach(b, i % 2, i // 2, 1, 1)
    buttons[name] = b

entry = Gtk.Entry()
entry.set_text("text")
box.pack_start(entry, False, False, 0)
buttons["entry"] = entry

spin = Gtk.SpinButton.new_with_range(0, 10, 1)
spin.connect("value-changed", lambda s: say(f"spin {s.get_value():g}"))
box.pack_start(spin, False, False, 0)
buttons["spin"] = spin

scale = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 200, 5)
scale.set_size_request(300, -1)
scale.connect("value-changed", lambda s: say(f"scale {s.get_value():g}"))
box.pack_start(scale, False, False, 0)
buttons["scale"] = scale

toggle = Gtk.ToggleButton(label="toggle")
toggle.connect("toggled", lambda t: say("toggled " + ("on" if t.get_active() else "off")))
box.pack_start(toggle, False, False, 0)
buttons["toggle"] = toggle

listbox = Gtk.ListBox()
for name in ["red", "green"]:
    row = Gtk.ListBoxRow()
    row.add(Gtk.Label(label=name))
    listbox.add(row)
    buttons[name] = row
box.pack_start(listbox, False, False, 0)

opener = Gtk.Button(label="dialog")
box.pack_start(opener, False, False, 0)
buttons["dialog"] = opener


def open_dialog(*_):
    d = Gtk.Dialog(title="fixture dialog", transient_for=win, modal=True)
    d.add_button("cancel", Gtk.ResponseType.CANCEL)
    d.add_button("ok", Gtk.ResponseType.OK)

    def response(dialog, answer):
        say("dialog " + ("ok" if answer == Gtk.ResponseType.OK else "cancel"))
        dialog.destroy()
    d.connect("response", response)
    d.show_all()


opener.connect("clicked", open_dialog)

hidden = Gtk.Button(label="hidden")
box.pack_start(hidden, False, False, 0)


def command(source, _condition):
    line = source.readline()
    if not line:
        Gtk.main_quit()
        return False
    words = line.split()
    if words[:1] == ["add"]:
        b = Gtk.Button(label="added")
        b.connect("clicked", lambda *_: say("clicked added"))
        # gtk_container_add: GTK 3 sends children-changed for it (gtk_box_pack_start sends none;
        # docs/adapters-atspi.md, "Known limits").
        box.add(b)
        b.show()
        buttons["added"] = b
        say("added")
    elif words[:1] == ["focus"]:
        buttons[words[1]].grab_focus()
        say("focused " + words[1])
    elif words[:1] == ["dialog"]:
        open_dialog()
    elif words[:1] == ["quit"]:
        Gtk.main_quit()
    return True


GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, command)
win.show_all()
hidden.hide()
buttons["one"].grab_focus()
GLib.idle_add(lambda: say("ready") and False)
Gtk.main()
