// The spectator view (a stream overlay, a second screen): the order of play, the table's view
// of every combatant, the readable log as it grows, who is connected.
import { $, fragment, client, explain, renderTable, renderPresence, renderLog, renderTimeline } from "./ui.js";

const { enc, token } = fragment();
const api = client(token);
const fail = (err) => explain(err, $("#problem"));

let timer = null;
function refresh() {
  clearTimeout(timer);
  timer = setTimeout(() => { renderLog(api, enc, $("#log")).catch(fail); renderTimeline(api, enc, $("#timeline")); }, 50);
}

async function start() {
  if (!enc || !token) { fail({ detail: "This page needs a spectator link from the GM." }); return; }
  const state = await api.state(enc);
  $("#title").textContent = state.name;
  renderTable(state, $("#table"));
  refresh();
  api.live(enc, {
    onState: (s) => { renderTable(s, $("#table")); refresh(); },
    onPresence: (p) => renderPresence(p, $("#presence")),
    onStatus: (s) => { $("#live-status").textContent = `Live: ${s}`; },
    onError: (m) => fail(m),
  });
}

start().catch(fail);
