// The turn signal: the tab's title says when the seat is to act (and the page is elsewhere);
// opted in, a short tone and a notification too. The choice is kept in this browser.

import { h } from "./dom.js";

const KEY = "hearthlog:turn-signal";

/** A tone of a quarter second (WebAudio: no sound file to fetch). */
function tone() {
  try {
    const audio = new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    gain.gain.value = 0.08;
    osc.frequency.value = 660;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
    osc.onended = () => audio.close();
  } catch {
    // No audio here: the title still says it.
  }
}

export function turnSignal() {
  let wasMine = false;
  const on = () => localStorage.getItem(KEY) === "on";
  return {
    /** Set the tab's title; on the turn's arrival, sound and notify when opted in. */
    update(view, seat, base) {
      const mine = seat !== null && view.status === "playing" && view.to_act.includes(seat);
      document.title = view.status === "finished" ? `Finished · ${base}` : mine ? `▶ Your turn · ${base}` : base;
      if (mine && !wasMine && on()) {
        tone();
        if (document.hidden && "Notification" in window && Notification.permission === "granted") {
          new Notification("Hearthlog: your turn", { body: base, tag: KEY });
        }
      }
      wasMine = mine;
    },
    /** The opt-in checkbox. */
    control() {
      const box = h("input", { type: "checkbox", id: "turn-signal", checked: on() });
      box.addEventListener("change", async () => {
        localStorage.setItem(KEY, box.checked ? "on" : "off");
        if (box.checked && "Notification" in window && Notification.permission === "default") {
          await Notification.requestPermission();
        }
      });
      return h("label", { class: "signal", for: "turn-signal" }, box, " Sound and notify me when it is my turn");
    },
  };
}
