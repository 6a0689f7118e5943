"""fracas-client.js on its own, in node (v20; no npm package): the state patches it applies
(as projections/patch.py makes them) and its resume position (`after=`) across a dropped
connection, with a fake WebSocket."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from projections.patch import json_patch

CLIENT = Path(__file__).resolve().parents[2] / "server" / "web" / "fracas-client.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def run_node(script: str) -> object:
    out = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_patches_from_the_server_rebuild_the_new_state() -> None:
    old = {"round": 1, "turn": "a", "order": ["a", "b"], "combatants": {"a": {"hits": 0, "tags": ["x"]}, "b/c~": {"hits": 1}}}
    new = {"round": 2, "turn": None, "order": ["b"], "combatants": {"a": {"hits": 2, "tags": []}, "d": {"hits": 0}}}
    patch = json_patch(old, new)
    got = run_node(f"""
import {{ applyPatch }} from {json.dumps(CLIENT.as_uri())};
const old = {json.dumps(old)};
const out = applyPatch(old, {json.dumps(patch)});
console.log(JSON.stringify({{ out, untouched: old }}));
""")
    assert got == {"out": new, "untouched": old}


def test_resume_asks_for_what_came_after_the_last_version_seen() -> None:
    got = run_node(f"""
import {{ Fracas }} from {json.dumps(CLIENT.as_uri())};
const urls = [];
class FakeSocket {{ constructor(url) {{ urls.push(url); FakeSocket.last = this; }} close(code) {{ setTimeout(() => this.onclose({{ code }}), 0); }} }}
const seen = [];
const live = new Fracas("http://table.example", "frc_x").live("enc1", {{
  onEvent: (e) => seen.push(e.version), onState: (s, v) => seen.push("state@" + v) }},
  {{ WebSocketImpl: FakeSocket, reconnectMs: 1 }});
live.receive({{ type: "event", version: 1, event: {{ version: 1 }} }});
live.receive({{ type: "event", version: 2, event: {{ version: 2 }} }});
live.receive({{ type: "state", version: 2, state: {{ round: 0 }}, presence: null }});
live.receive({{ type: "event", version: 3, event: {{ version: 3 }} }});
live.receive({{ type: "patch", version: 3, base: 2, patch: [{{ op: "replace", path: "/round", value: 1 }}] }});
FakeSocket.last.onclose({{ code: 1006 }});  // the connection drops
await new Promise((r) => setTimeout(r, 20));
live.receive({{ type: "event", version: 3, event: {{ version: 3 }} }});  // sent again: applied once
live.receive({{ type: "event", version: 4, event: {{ version: 4 }} }});
live.receive({{ type: "patch", version: 4, base: 9, patch: [] }});  // on a state we do not have: resync
await new Promise((r) => setTimeout(r, 20));
live.close();
console.log(JSON.stringify({{ urls, seen, state: live.state, after: live.after }}));
""")
    assert got["urls"] == [
        "ws://table.example/encounters/enc1/live?after=0&batch=true&token=frc_x",
        "ws://table.example/encounters/enc1/live?after=3&batch=true&token=frc_x",
        "ws://table.example/encounters/enc1/live?after=4&batch=true&token=frc_x",
    ]
    assert got["seen"] == [1, 2, "state@2", 3, "state@3", 4]
    assert got["state"] == {"round": 1} and got["after"] == 4


def test_a_frame_of_one_batch_is_applied_in_order_and_a_resync_drops_the_rest() -> None:
    """With ``batch=true`` a frame is the JSON array of one batch's messages: applied in order;
    after a patch on a state the client does not have, the rest of that frame is dropped (the
    reconnection sends it again)."""
    got = run_node(f"""
import {{ Fracas }} from {json.dumps(CLIENT.as_uri())};
const sockets = [];
class FakeSocket {{ constructor(url) {{ this.url = url; sockets.push(this); }} close(code) {{ setTimeout(() => this.onclose({{ code }}), 0); }} }}
const seen = [];
const live = new Fracas("http://table.example", "frc_x").live("enc1", {{
  onEvent: (e) => seen.push(e.version), onState: (s, v) => seen.push("state@" + v), onPrompt: (p) => seen.push(p.id) }},
  {{ WebSocketImpl: FakeSocket, reconnectMs: 1 }});
const frame = (messages) => sockets.at(-1).onmessage({{ data: JSON.stringify(messages) }});
frame([{{ type: "hello", version: 0, head: 2 }}]);
frame([{{ type: "event", version: 1, event: {{ version: 1 }} }}, {{ type: "event", version: 2, event: {{ version: 2 }} }},
       {{ type: "state", version: 2, state: {{ round: 0, pending: [{{ id: "p1" }}] }}, presence: null }},
       {{ type: "prompt", version: 2, prompt: {{ id: "p1" }} }}]);
frame([{{ type: "event", version: 3, event: {{ version: 3 }} }},
       {{ type: "patch", version: 3, base: 2, patch: [{{ op: "replace", path: "/round", value: 1 }}] }}]);
frame([{{ type: "event", version: 4, event: {{ version: 4 }} }},
       {{ type: "patch", version: 4, base: 9, patch: [] }},  // on a state we do not have: resync
       {{ type: "prompt", version: 4, prompt: {{ id: "p2" }} }}]);
sockets.at(-1).onmessage({{ data: JSON.stringify({{ type: "event", version: 5, event: {{ version: 5 }} }}) }});
await new Promise((r) => setTimeout(r, 20));
live.close();
console.log(JSON.stringify({{ urls: sockets.map((s) => s.url), seen, state: live.state, after: live.after }}));
""")
    assert got["seen"] == [1, 2, "state@2", "p1", 3, "state@3", 4]
    assert got["urls"] == ["ws://table.example/encounters/enc1/live?after=0&batch=true&token=frc_x",
                           "ws://table.example/encounters/enc1/live?after=4&batch=true&token=frc_x"]
    assert got["state"] == {"round": 1, "pending": [{"id": "p1"}]} and got["after"] == 4


def test_the_next_moves_are_kept_patched_and_an_answered_prompt_goes() -> None:
    """The live part of issue 37 in the client: ``actions`` whole, then ``actions_patch`` against
    them; a prompt none of whose answers is offered any more is dropped; a patch on next moves
    the client does not have resyncs."""
    first = {"version": 5, "over": False, "waiting_on": [{"combatant_id": "m", "who": "player", "what": "defend"}],
             "actions": [{"id": "a1", "kind": "decision", "decision": "p1", "command": {"type": "Defend"}}]}
    second = {"version": 6, "over": False, "waiting_on": [{"combatant_id": "m", "who": "player", "what": "Mira's turn"}],
              "actions": [{"id": "a2", "kind": "move", "decision": None, "command": {"type": "EndTurn"}}]}
    patch = json_patch(first, second)
    got = run_node(f"""
import {{ Fracas }} from {json.dumps(CLIENT.as_uri())};
const sockets = [];
class FakeSocket {{ constructor(url) {{ this.url = url; sockets.push(this); }} close(code) {{ setTimeout(() => this.onclose({{ code }}), 0); }} }}
const seen = [];
const live = new Fracas("http://table.example", "frc_x").live("enc1", {{ onActions: (a) => seen.push(a.version) }},
  {{ WebSocketImpl: FakeSocket, reconnectMs: 1 }});
live.receive({{ type: "prompt", version: 5, prompt: {{ id: "p1" }} }});
live.receive({{ type: "actions", version: 5, actions: {json.dumps(first)} }});
const before = [...live.prompts.keys()];
live.receive({{ type: "actions_patch", version: 6, base: 5, patch: {json.dumps(patch)} }});
const after = [...live.prompts.keys()];
const kept = live.actions;
live.receive({{ type: "actions_patch", version: 7, base: 99, patch: [] }});  // not on ours: resync
await new Promise((r) => setTimeout(r, 20));
live.close();
console.log(JSON.stringify({{ seen, before, after, kept, urls: sockets.map((s) => s.url) }}));
""")
    assert got["seen"] == [5, 6]
    assert got["before"] == ["p1"] and got["after"] == []
    assert got["kept"] == second
    assert len(got["urls"]) == 2  # the resync reconnected
