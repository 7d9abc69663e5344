#!/usr/bin/env python3
"""Writes the Android case files (../*.json) from the hand transcription of AOSP's FocusFinderTest
(below, as calls) and of Compose's 2D traversal tests (twoitems.txt, threeitems.txt, and the hierarchy
and initial-focus tests below), and evaluates every case with a small reference of focus.md §2 to
flag the cases whose source expectation contradicts focus.md as written (each needs a reason in
CONTRADICTIONS, else the run stops).  Run: python3 gen.py"""
import json, os, re, sys
HERE = os.path.dirname(os.path.abspath(__file__))

# ---------- focus.md §2 reference (floating point) ----------
def ltrb(f): x, y, w, h = f; return (x, y, x + w, y + h)
def mirror(d, s, c):
    """Map a move in direction d to a move LEFT by coordinate transform; returns (s', c')."""
    def t(r):
        l, tp, rr, b = r
        if d == 'left': return (l, tp, rr, b)
        if d == 'right': return (-rr, tp, -l, b)
        if d == 'up': return (tp, l, b, rr)
        if d == 'down': return (-b, l, -tp, rr)
    return t(s), t(c)
def in_dir(d, s, c):
    s, c = mirror(d, s, c); return (s[2] > c[2] or s[0] >= c[2]) and s[0] > c[0]
def in_beam(d, s, c):
    s, c = mirror(d, s, c); return c[3] > s[1] and c[1] < s[3]
def beyond(d, s, c):
    s, c = mirror(d, s, c); return s[0] >= c[2]
def major(d, s, c):
    s, c = mirror(d, s, c); return max(0, s[0] - c[2])
def major_far(d, s, c):
    s, c = mirror(d, s, c); return max(1, s[0] - c[0])
def minor(d, s, c):
    s, c = mirror(d, s, c); return abs((s[1] + s[3]) / 2 - (c[1] + c[3]) / 2)
def score(d, s, c): return 13 * major(d, s, c) ** 2 + minor(d, s, c) ** 2
def beam_beats(d, s, a, b):
    if not in_beam(d, s, a) or in_beam(d, s, b): return False
    if not beyond(d, s, b): return True
    if d in ('left', 'right'): return True
    return major(d, s, a) < major_far(d, s, b)
def better(d, s, a, b):
    if not in_dir(d, s, a): return False
    if not in_dir(d, s, b): return True
    return beam_beats(d, s, a, b) or (not beam_beats(d, s, b, a) and score(d, s, a) < score(d, s, b))

def flatten(nodes):
    out = []
    for n in nodes:
        out.append(n); out += flatten(n.get('children', []))
    return out

def evaluate(case):
    """Winner id (or None) under focus.md for a scene with only plain candidates."""
    d = case['direction']; nodes = flatten(case['nodes'])
    if case['focused'] is None:
        rx, ry, rw, rh = case['rootFrame']
        px, py = (rx, ry) if d in ('right', 'down') else (rx + rw, ry + rh)
        s = (px, py, px, py)
    else:
        s = ltrb(next(n['frame'] for n in nodes if n['id'] == case['focused']))
    best = None
    for n in nodes:
        if n['id'] == case['focused']: continue
        f = n['frame']
        if n.get('focusable', True) is False: continue
        if f[2] <= 0 or f[3] <= 0: continue
        c = ltrb(f)
        if not in_dir(d, s, c): continue
        if case['policy'] == 'tvos' and not in_beam(d, s, c): continue
        if best is None or better(d, s, c, ltrb(best['frame'])): best = n
    return best['id'] if best else None

# ---------- AOSP ----------
DIRS = {'U': 'up', 'D': 'down', 'L': 'left', 'R': 'right'}
def xywh(r): l, t, rr, b = r; return [l, t, rr - l, b - t]

aosp = []
def node(i, r): return {'id': i, 'frame': xywh(r)}
def corner_root(d, r):
    # Search from an empty source rect: nothing focused, the scene root's corner is the rect's point.
    px, py = r[0], r[1]
    return [px, py, 400, 400] if d in ('right', 'down') else [px - 400, py - 400, 400, 400]

def is_candidate(name, part, d, src, dest, expect, assertion):
    empty = src[0] == src[2] and src[1] == src[3]
    c = {'name': name, 'part': part, 'assertion': assertion, 'policy': 'android', 'direction': d}
    if empty:
        c['nodes'] = [node('dest', dest)]; c['focused'] = None; c['rootFrame'] = corner_root(d, src)
    else:
        c['nodes'] = [node('src', src), node('dest', dest)]; c['focused'] = 'src'
    c['expected'] = 'dest' if expect else None
    aosp.append(c)

def better_cand(name, part, d, src, b, w, assertion='assertBetterCandidate'):
    empty = src[0] == src[2] and src[1] == src[3]
    for order in ('better,worse', 'worse,better'):
        ids = order.split(',')
        rect = {'better': b, 'worse': w}
        c = {'name': name, 'part': part, 'assertion': assertion, 'treeOrder': order, 'policy': 'android', 'direction': d}
        nodes = [node(i, rect[i]) for i in ids]
        if empty:
            c['nodes'] = nodes; c['focused'] = None; c['rootFrame'] = corner_root(d, src)
        else:
            c['nodes'] = [node('src', src)] + nodes; c['focused'] = 'src'
        c['expected'] = 'better'
        aosp.append(c)

def beams(name, part, d, r1, r2, overlap, assertion):
    # Probe: r2 moved along the major axis until it lies fully beyond r1 (the beam test reads only the
    # cross axis), searched under policy tvos, where only in-beam candidates count.
    l, t, r, b = r2; w, h = r - l, b - t
    if d == 'left': p = (r1[0] - 5 - w, t, r1[0] - 5, b)
    if d == 'right': p = (r1[2] + 5, t, r1[2] + 5 + w, b)
    if d == 'up': p = (l, r1[1] - 5 - h, r, r1[1] - 5)
    if d == 'down': p = (l, r1[3] + 5, r, r1[3] + 5 + h)
    aosp.append({'name': name, 'part': part, 'assertion': assertion, 'policy': 'tvos', 'direction': d,
                 'original': {'rect1': list(r1), 'rect2': list(r2)},
                 'probe': 'rect2 moved along the major axis to lie 5 beyond rect1; policy tvos admits only in-beam candidates',
                 'nodes': [node('rect1', r1), node('rect2', p)], 'focused': 'rect1',
                 'expected': 'rect2' if overlap else None})

def off(r, dx, dy): return (r[0] + dx, r[1] + dy, r[2] + dx, r[3] + dy)

is_candidate('testBelowNotCandidateForDirectionUp', 1, 'up', (0, 30, 10, 40), (0, 50, 10, 60), False, 'assertIsNotCandidate')
is_candidate('testAboveShareEdgeEdgeOkForDirectionUp', 1, 'up', (0, 30, 10, 40), (0, 20, 10, 30), True, 'assertDirectionIsCandidate')
is_candidate('testCompletelyContainedNotCandidate', 1, 'down', (0, 0, 50, 50), (0, 1, 50, 49), False, 'assertIsNotCandidate')
is_candidate('testContinaedWithCommonBottomNotCandidate', 1, 'down', (0, 0, 50, 50), (0, 1, 50, 50), False, 'assertIsNotCandidate')
is_candidate('testOverlappingIsCandidateWhenBothEdgesAreInDirection', 1, 'down', (0, 0, 50, 50), (0, 1, 50, 51), True, 'assertDirectionIsCandidate')
is_candidate('testTopEdgeOfDestAtOrAboveTopOfSrcNotCandidateForDown', 1, 'down', (0, 0, 50, 50), (0, 0, 50, 51), False, 'assertIsNotCandidate')
is_candidate('testTopEdgeOfDestAtOrAboveTopOfSrcNotCandidateForDown', 2, 'down', (0, 0, 50, 50), (0, -1, 50, 51), False, 'assertIsNotCandidate')
sq = (0, 0, 20, 20)
for i, d in enumerate(['left', 'right', 'up', 'down']):
    beams('testSameRectBeamsOverlap', i + 1, d, sq, sq, True, 'assertBeamsOverlap')
part = 0
for (dy, ov) in [(19, True), (20, False), (21, False), (-19, True), (-20, False), (-21, False)]:
    for d in ('left', 'right'):
        part += 1
        beams('testOverlapBeamsRightLeftUpToEdge', part, d, sq, off(sq, 0, dy), ov, 'assertBeamsOverlap' if ov else 'assertBeamsDontOverlap')
part = 0
for (dx, ov) in [(19, True), (20, False), (21, False), (-19, True), (-20, False), (-21, False)]:
    for d in ('up', 'down'):
        part += 1
        beams('testOverlapBeamsUpDownUpToEdge', part, d, sq, off(sq, dx, 0), ov, 'assertBeamsOverlap' if ov else 'assertBeamsDontOverlap')
src = (0, 50, 20, 70)
better_cand('testDirectlyAboveTrumpsAboveLeft', 1, 'up', src, off(src, 0, -21), off(src, -21, -21))
better_cand('testAboveInBeamTrumpsSlightlyCloserOutOfBeam', 1, 'up', src, off(src, 0, -26), off(src, -21, -21))
src = (0, 0, 50, 50)
aboveLeft = off(src, -51, -50); aboveIn = off(src, 0, -50)
beams('testOutOfBeamBeatsInBeamUp', 1, 'up', src, aboveLeft, False, 'assertBeamsDontOverlap')
beams('testOutOfBeamBeatsInBeamUp', 2, 'up', src, aboveIn, True, 'assertBeamsOverlap')
better_cand('testOutOfBeamBeatsInBeamUp', 3, 'up', src, aboveIn, aboveLeft)
aboveIn = off(aboveIn, 0, -49)
better_cand('testOutOfBeamBeatsInBeamUp', 4, 'up', src, aboveIn, aboveLeft)
aboveIn = off(aboveIn, 0, -1)
better_cand('testOutOfBeamBeatsInBeamUp', 5, 'up', src, aboveLeft, aboveIn)
nonC = off(src, 51, 0); cand = off(src, -200, 0)
is_candidate('testSomeCandidateBetterThanNonCandidate', 1, 'left', src, nonC, False, 'assertIsNotCandidate')
is_candidate('testSomeCandidateBetterThanNonCandidate', 2, 'left', src, cand, True, 'assertDirectionIsCandidate')
better_cand('testSomeCandidateBetterThanNonCandidate', 3, 'left', src, cand, nonC)
better_cand('testVerticalFocusSearchScenario', 1, 'down', (0, 109, 153, 169), (166, 169, 319, 229), (0, 229, 320, 289))
better_cand('testVerticalFocusSearchScenario', 2, 'down', (0, 91, 153, 133), (166, 133, 319, 175), (0, 175, 320, 217))
better_cand('testBeamsOverlapMajorAxisCloserMinorAxisFurther', 1, 'down', (0, 0, 100, 100), (0, 100, 480, 200), (0, 200, 100, 300))
better_cand('testMusicPlaybackScenario', 1, 'left', (227, 185, 312, 231), (195, 386, 266, 438), (124, 386, 195, 438))
better_cand('testOutOfBeamOverlapBeatsOutOfBeamFurtherOnMajorAxis', 1, 'down', (0, 0, 50, 50), (60, 40, 110, 90), (60, 70, 110, 120))
better_cand('testInBeamTrumpsOutOfBeamOverlapping', 1, 'down', (0, 0, 50, 50), (0, 60, 50, 110), (51, 1, 101, 51))
better_cand('testOverlappingBeatsNonOverlapping', 1, 'down', (0, 0, 50, 50), (0, 40, 50, 90), (0, 75, 50, 125))
better_cand('testEditContactScenarioLeftFromDiscardChangesGoesToSaveContactInLandscape', 1, 'left', (357, 258, 478, 318), (2, 258, 100, 318), (106, 120, 424, 184))
better_cand('testGridWithTouchingEdges', 1, 'down', (106, 49, 212, 192), (106, 192, 212, 335), (0, 192, 106, 335))
better_cand('testGridWithTouchingEdges', 2, 'down', (106, 49, 212, 192), (106, 192, 212, 335), (212, 192, 318, 335))
better_cand('testSearchFromEmptyRect', 1, 'down', (0, 0, 0, 0), (0, 0, 320, 45), (0, 45, 320, 545))
g = ((223, 380, 312, 417), (102, 380, 210, 417), (111, 443, 206, 480))
better_cand('testGmailReplyButtonsScenario', 1, 'left', *g)
better_cand('testGmailReplyButtonsScenario', 2, 'left', *g, assertion='assertBeamBeats')
beams('testGmailReplyButtonsScenario', 3, 'left', g[0], g[1], True, 'assertBeamsOverlap')
beams('testGmailReplyButtonsScenario', 4, 'left', g[0], g[2], False, 'assertBeamsDontOverlap')
aosp.append({'name': 'testGmailReplyButtonsScenario', 'part': 5, 'assertion': 'majorAxisDistance < majorAxisDistanceToFarEdge',
             'policy': 'android', 'direction': 'left', 'formula': True,
             'note': 'arithmetic only; checked against focus.md major / majorFar, not through a move',
             'nodes': [node('src', g[0]), node('rect1', g[1]), node('rect2', g[2])], 'focused': 'src', 'expected': None})
better_cand('testGmailScenarioBug1203288', 1, 'down', (0, 2, 480, 82), (344, 87, 475, 124), (0, 130, 480, 203))
better_cand('testHomeShortcutScenarioBug1295354', 1, 'right', (3, 338, 77, 413), (163, 338, 237, 413), (83, 38, 157, 113))
better_cand('testBeamAlwaysBeatsHoriz', 1, 'right', (0, 0, 50, 50), (150, 0, 200, 50), (60, 51, 110, 101))
better_cand('testBeamAlwaysBeatsHoriz', 2, 'left', (150, 0, 200, 50), (0, 0, 50, 50), (49, 99, 149, 101))
is_candidate('testIsCandidateOverlappingEdgeFromEmptyRect', 1, 'down', (0, 0, 0, 0), (0, 0, 20, 1), True, 'assertDirectionIsCandidate')
is_candidate('testIsCandidateOverlappingEdgeFromEmptyRect', 2, 'up', (0, 0, 0, 0), (0, -1, 20, 0), True, 'assertDirectionIsCandidate')
is_candidate('testIsCandidateOverlappingEdgeFromEmptyRect', 3, 'left', (0, 0, 0, 0), (-1, 0, 0, 20), True, 'assertDirectionIsCandidate')
is_candidate('testIsCandidateOverlappingEdgeFromEmptyRect', 4, 'right', (0, 0, 0, 0), (0, 0, 1, 20), True, 'assertDirectionIsCandidate')

# ---------- Compose ----------
def parse_compose(path, test_file):
    cases = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith('#'): continue
        name, boxes, moves = [p.strip() for p in line.split('|')]
        variant = None
        if '@' in name: name, variant = name.split('@')
        nodes = []; focused = None
        # boxes: id(x,y,w,h) with optional [child(x,y,w,h)] nested right after, absolute coordinates
        stack = [nodes]
        for m in re.finditer(r'(\w+)\(([-\d,]+)\)(\[)?|(\])', boxes):
            if m.group(4): stack.pop(); continue
            i, nums, opens = m.group(1), [int(v) for v in m.group(2).split(',')], m.group(3)
            i = {'c': 'candidate', 'f': 'focusedItem'}.get(i, i)
            n = {'id': i, 'frame': nums}
            stack[-1].append(n)
            if i == 'focusedItem': focused = i
            if opens: n['children'] = []; stack.append(n['children'])
        expect = {}
        if '=' in moves:   # D=next form: every direction listed with its winner
            for tok in moves.split():
                d, w = tok.split('='); expect[DIRS[d]] = None if w == '-' else w
        else:
            for d in 'LRUD':
                expect[DIRS[d]] = 'candidate' if d in moves.split() else None
        for d, w in expect.items():
            c = {'name': name, 'file': test_file, 'policy': 'android', 'direction': d, 'nodes': nodes,
                 'focused': focused, 'expected': w}
            if variant: c['variant'] = variant
            cases.append(c)
    return cases

compose = parse_compose(os.path.join(HERE, 'twoitems.txt'), 'TwoDimensionalFocusTraversalTwoItemsTest.kt')
compose += parse_compose(os.path.join(HERE, 'threeitems.txt'), 'TwoDimensionalFocusTraversalThreeItemsTest.kt')

def N(i, x, y, w=10, h=10, children=None, focusable=True):
    n = {'id': i, 'frame': [x, y, w, h]}
    if not focusable: n['focusable'] = False
    if children: n['children'] = children
    return n

SIBLING_REASON = ('Compose searches among the children of the focused node\'s focus parent before the rest of '
                  'the tree; focus.md §2 contains a search only inside sections, and a focusable (or deactivated) '
                  'parent is not a section, so the whole scene competes')
DEEP_REASON = ('the six focusable ancestors (Compose FocusableBox wrappers) have exactly item1\'s frame, so under '
               'focus.md §2 they tie with it and the earliest in tree order, the outermost ancestor, wins; Compose '
               'searches among the focused node\'s siblings first and reaches item1')
CONTRADICTIONS = {}
tdt = []
def tcase(name, d, nodes, focused, expected, variant=None, reason=None):
    c = {'name': name, 'policy': 'android', 'direction': d, 'nodes': nodes, 'focused': focused, 'expected': expected}
    if variant: c['variant'] = variant
    if reason: CONTRADICTIONS[(name, d)] = reason
    tdt.append(c)

def wrap6(inner):
    node = inner
    for level in range(6, 0, -1):
        node = [N('box%d' % level, 0, 0, children=node)]
    return node

for d in ('left', 'right', 'up', 'down'):
    horizontal = d in ('left', 'right')
    P = (lambda k: (10 * k, 0)) if horizontal else (lambda k: (0, 10 * k))
    back = d in ('left', 'up')
    # movesFocusAmongSiblingsDeepInTheFocusHierarchy
    sib = [N('item1', *P(0)), N('item2', *P(1))]
    tcase('movesFocusAmongSiblingsDeepInTheFocusHierarchy', d, wrap6(sib), 'item2' if back else 'item1',
          'item1' if back else 'item2', reason=DEEP_REASON if back else None)
    # movesFocusOutsideCurrentParent
    tcase('movesFocusOutsideCurrentParent', d,
          [N('item0', *P(0)), N('parent', *P(1), children=[N('initial', *P(1))]), N('item1', *P(2))],
          'initial', 'item0' if back else 'item1')
    # movesOutsideDeactivatedParent
    tcase('movesOutsideDeactivatedParent', d,
          [N('item0', *P(0)), N('parent', *P(1), children=[N('initial', *P(1))], focusable=False), N('item1', *P(2))],
          'initial', 'item0' if back else 'item1')
    # skipsChild
    tcase('skipsChild', d,
          [N('item0', *P(0)), N('item1', *P(1), children=[N('child', *P(1))]), N('item2', *P(2))],
          'item1', 'item0' if back else 'item2')
    # DoesNotSkipChildOfDeactivatedItem
    tcase('DoesNotSkipChildOfDeactivatedItem', d,
          [N('item0', *P(0)), N('item1', *P(1), children=[N('child', *P(1))], focusable=False), N('item2', *P(2))],
          'item2' if back else 'item0', 'child')
    # movesFocusAmongSiblingsDeepInTheFocusHierarchy_skipsDeactivatedSibling
    sib = [N('item1', *P(0)), N('item2', *P(1), focusable=False), N('item3', *P(2))]
    tcase('movesFocusAmongSiblingsDeepInTheFocusHierarchy_skipsDeactivatedSibling', d, wrap6(sib),
          'item3' if back else 'item1', 'item1' if back else 'item3', reason=DEEP_REASON if back else None)
    # movesFocusAmongSiblings_prefersSiblingToAnAncestorThatIsCloser (+ _whenParentIsDeactivated)
    for suffix, focusable in (('', True), ('_whenParentIsDeactivated', False)):
        if horizontal:
            nodes = [N('other1', 10, 0),
                     N('parent', 0, 0, 50, 10, focusable=focusable,
                       children=[N('sibling0', 0, 0), N('sibling1', 20, 0), N('sibling2', 40, 0)]),
                     N('other2', 30, 0)]
        else:
            nodes = [N('other1', 0, 10),
                     N('parent', 0, 0, 10, 50, focusable=focusable,
                       children=[N('sibling0', 0, 0), N('sibling1', 0, 20), N('sibling2', 0, 40)]),
                     N('other2', 0, 30)]
        tcase('movesFocusAmongSiblings_prefersSiblingToAnAncestorThatIsCloser' + suffix, d, nodes, 'sibling1',
              'sibling0' if back else 'sibling2', reason=SIBLING_REASON)

initial = []
def icase(name, d, nodes, root, expected):
    initial.append({'name': name, 'policy': 'android', 'direction': d, 'rootFrame': root, 'nodes': nodes,
                    'focused': None, 'expected': expected})
for d in ('left', 'right', 'up', 'down'):
    back = d in ('left', 'up')
    grid = [N('item%d' % i, 10 * (i % 2), 10 * (i // 2)) for i in range(4)]
    icase('initialFocus', d, grid, [0, 0, 20, 20], 'item3' if back else 'item0')
    grid = [N('item%d' % i, 10 * (i % 3), 10 * (i // 3), focusable=i not in (0, 6)) for i in range(9)]
    icase('initialFocus_DeactivatedItemIsSkipped', d, grid, [0, 0, 30, 30],
          {'up': 'item8', 'left': 'item8', 'down': 'item1', 'right': 'item3'}[d])
    icase('initialFocus_whenThereIsOnlyOneFocusable', d, [N('item', 0, 0)], [0, 0, 10, 10], 'item')
    icase('doesNotCrash_whenThereIsNoFocusable', d, [N('text', 0, 0, 30, 10, focusable=False)], [0, 0, 30, 10], None)
    icase('doesNotCrash_whenThereIsOneDeactivatedItem', d, [N('item', 0, 0, focusable=False)], [0, 0, 10, 10], None)

def check(cases, translate):
    bad = 0
    for c in cases:
        if c.get('formula'):
            s, a, b = [ltrb(n['frame']) for n in c['nodes']]
            ok = major('left', s, a) < major_far('left', s, b)
            if not ok: print('FORMULA CONTRADICTION', c['name']); bad += 1
            continue
        got = evaluate(c)
        if got != c['expected']:
            bad += 1
            c['focusMdExpected'] = got
            c['contradiction'] = CONTRADICTIONS.get((c['name'], c['direction']), 'UNEXPLAINED')
            print('CONTRADICTION', c['name'], c.get('part', ''), c.get('treeOrder', ''), c['direction'], 'source says', c['expected'], 'focus.md gives', got)
    return bad

b1 = check(aosp, 1000); b2 = check(compose, 0); b3 = check(tdt, 0); b4 = check(initial, 0)
flagged = {(c['name'], c['direction']) for c in tdt + initial if 'contradiction' in c}
assert flagged == set(CONTRADICTIONS), (flagged ^ set(CONTRADICTIONS))
assert b1 == 0 and b2 == 0 and b4 == 0, 'a contradiction without a reason'
print(len(tdt), 'TwoDimensionalFocusTraversalTest cases,', b3, 'contradictions;', len(initial), 'initial-focus cases,', b4)
print(len(aosp), 'aosp cases,', b1, 'contradictions;', len(compose), 'compose cases,', b2, 'contradictions')

# ---------- write the data files ----------
OUT = os.path.join(HERE, '..') + os.sep
FORMAT = ('Each case: one scene under `policy` whose root holds `nodes` (focusable unless `focusable` is false, '
          'as for a Compose FocusableBox with deactivated = true; frames [x, y, width, height] in '
          'scene coordinates, nested `children` where the source nests them); focus `focused` (null: nothing focused, '
          'so policy android searches from the corner of `rootFrame`: top-left for right/down, bottom-right for '
          'left/up), move `direction`, and the source expects focus on `expected` (null: focus stays, the move is '
          'blocked). `name` is the original test; `part` numbers the assertions of one test in source order; '
          '`treeOrder` says which of the two orders of an assertBetterCandidate pair this scene uses (the pair asserts '
          'both isBetterCandidate(better, worse) and !isBetterCandidate(worse, better), so the winner must not depend '
          'on order). `contradiction`, when present, says why focus.md §2 as written disagrees, and '
          '`focusMdExpected` what it gives; the test asserts focus.md.')

def dump(obj, path):
    cases = obj.pop('cases')
    head = json.dumps(obj, indent=1)[:-2]
    body = ',\n'.join('  ' + json.dumps(c, separators=(', ', ': ')) for c in cases)
    open(path, 'w').write(head + ',\n "cases": [\n' + body + '\n ]\n}\n')
    json.load(open(path))

def strip(c):
    return {k: v for k, v in c.items() if v is not None or k in ('focused', 'expected')}

aosp_file = {
    'source': {
        'repository': 'https://android.googlesource.com/platform/frameworks/base (GitHub mirror aosp-mirror/platform_frameworks_base)',
        'path': 'core/tests/coretests/src/android/view/FocusFinderTest.java',
        'commit': 'd061f4ff15a4c16f672f1ea836a730c2165e4904',
        'license': 'Apache-2.0',
        'copyright': 'Copyright (C) 2008 The Android Open Source Project',
    },
    'transcription': ('Rectangles transcribed from the test methods (android.graphics.Rect left, top, right, bottom, '
                      'converted to x, y, width, height; Rect.offset applied). FocusFinderTest calls FocusFinder helpers '
                      'on rectangles; each assertion becomes a scene and one move: isCandidate(src, dest) -> src and dest, '
                      'expected dest or blocked; isBetterCandidate / beamBeats(src, better, worse) -> src, better, worse '
                      'in both tree orders, expected better; beamsOverlap(dir, rect1, rect2) -> a probe under policy tvos '
                      '(rect2 moved along the major axis to lie beyond rect1, which leaves the cross-axis beam test '
                      'unchanged), expected rect2 if the beams overlap, else blocked; an empty src rect (0,0,0,0) -> '
                      'nothing focused and the corner start of policy android. testPreconditions has no geometry and '
                      'is not transcribed. The source uses negative coordinates, which scenes reject: every frame is '
                      'shifted by `translate` when the scene is built (all rules are translation invariant).'),
    'format': FORMAT,
    'translate': [1000, 1000],
    'cases': [strip(c) for c in aosp],
}
def compose_file(fname, cases, commit):
    return {
        'source': {
            'repository': 'https://android.googlesource.com/platform/frameworks/support (GitHub mirror androidx/androidx)',
            'path': 'compose/ui/ui/src/androidInstrumentedTest/kotlin/androidx/compose/ui/focus/' + fname,
            'commit': commit,
            'license': 'Apache-2.0',
            'copyright': 'Copyright 2021 The Android Open Source Project',
        },
        'transcription': ('FocusableBox(state, x, y, width, height) layouts transcribed per test; the test is '
                          'parameterized over Left, Right, Up, Down, so each test gives one case per direction, and '
                          'the asserted focused item after focusManager.moveFocus is `expected` (the focused item '
                          'still focused: null, the move finds nothing). Composition order is tree order. '
                          'Compose lays a FocusableBox child out relative to its parent: children are given here in '
                          'absolute coordinates; deactivated = true (canFocus = false) is `focusable: false`, which keeps the '
                          'children focusable as Compose does (focus.md `disabled` would not).'),
        'format': FORMAT,
        'translate': [0, 0],
        'cases': [strip(c) for c in cases],
    }
two = [c for c in compose if c['file'].startswith('TwoDimensionalFocusTraversalTwoItems')]
three = [c for c in compose if c['file'].startswith('TwoDimensionalFocusTraversalThreeItems')]
for c in compose: del c['file']
dump(aosp_file, OUT + 'aosp-FocusFinderTest.json')
dump(compose_file('TwoDimensionalFocusTraversalTwoItemsTest.kt', two, 'dcaa116fbfda77e64a319e1668056ce3b032469f'),
          OUT + 'compose-TwoDimensionalFocusTraversalTwoItemsTest.json')
if three:
    dump(compose_file('TwoDimensionalFocusTraversalThreeItemsTest.kt', three, '55c737bfb7a7320ac5b43787306f0c3af169f420'),
              OUT + 'compose-TwoDimensionalFocusTraversalThreeItemsTest.json')
print('written', len(aosp), len(two), len(three))

dump(compose_file('TwoDimensionalFocusTraversalTest.kt', tdt, '31adf48a5ba261a6d7abf653f74a38d1623fd319'),
     OUT + 'compose-TwoDimensionalFocusTraversalTest.json')
dump(compose_file('TwoDimensionalFocusTraversalInitialFocusTest.kt', initial, '31adf48a5ba261a6d7abf653f74a38d1623fd319'),
     OUT + 'compose-TwoDimensionalFocusTraversalInitialFocusTest.json')
