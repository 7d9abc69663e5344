#!/usr/bin/python3
"""A Qt 5 application for the atspi adapter's tests (PyQt5): buttons in a row, a line edit, a spin
box, a slider and a list (Qt's list items refuse GrabFocus: the adapter goes through their
container). Like the GTK 3 fixture it prints one line per thing a test waits for on stdout
(`clicked NAME`, `spin VALUE`, `scale VALUE`, `row NAME`, `ready`) and obeys `focus NAME` and
`quit` on stdin.

Qt registers on the accessibility bus only with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 (or a screen
reader flag on the session bus) and takes focus requests only while its window has X input focus."""
import faulthandler
import sys

from PyQt5.QtCore import QSocketNotifier, Qt, QTimer
from PyQt5.QtWidgets import (QApplication, QHBoxLayout, QLineEdit, QListWidget, QPushButton, QSlider, QSpinBox,
                             QVBoxLayout, QWidget)


def say(line):
    print(line, flush=True)


faulthandler.enable()  # a crash inside Qt leaves its trace in the test log
app = QApplication(sys.argv)
win = QWidget()
win.setWindowTitle("focusd atspi qt fixture")
win.resize(640, 480)
column = QVBoxLayout(win)
row = QHBoxLayout()
column.addLayout(row)
widgets = {}
for name in ["alpha", "beta", "gamma"]:
    b = QPushButton(name)
    b.clicked.connect(lambda _checked=False, n=name: say(f"clicked {n}"))
    row.addWidget(b)
    widgets[name] = b

edit = QLineEdit("text")
column.addWidget(edit)
widgets["edit"] = edit

spin = QSpinBox()
spin.setRange(0, 10)
spin.valueChanged.connect(lambda v: say(f"spin {v}"))
column.addWidget(spin)
widgets["spin"] = spin

slider = QSlider(Qt.Horizontal)
slider.setRange(0, 200)
slider.setSingleStep(5)
slider.valueChanged.connect(lambda v: say(f"scale {v}"))
column.addWidget(slider)
widgets["scale"] = slider

items = QListWidget()
items.addItems(["red", "green", "blue"])
items.currentTextChanged.connect(lambda text: say(f"row {text}"))
column.addWidget(items)
widgets["list"] = items


def command():
    line = sys.stdin.readline()
    if not line:
        app.quit()
        return
    words = line.split()
    if words[:1] == ["focus"]:
        widgets[words[1]].setFocus(Qt.OtherFocusReason)
        say("focused " + words[1])
    elif words[:1] == ["quit"]:
        app.quit()


notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Read)
notifier.activated.connect(command)
win.show()
widgets["alpha"].setFocus(Qt.OtherFocusReason)
QTimer.singleShot(0, lambda: say("ready"))
sys.exit(app.exec_())
