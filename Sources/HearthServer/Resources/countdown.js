// The time left until the next fortune cookie, as the page was served, kept true while the
// page stays open: <time class="left" datetime="ISO"> counts down each half minute. The page
// reads right without it.
"use strict";
(() => {
  const left = document.querySelector("time.left[datetime]");
  const at = left ? Date.parse(left.getAttribute("datetime")) : NaN;
  if (Number.isNaN(at)) return;
  // The words of LocalDays.countdown: "7h 12m", "45m", "under a minute".
  const words = (minutes) => {
    if (minutes < 1) return "under a minute";
    if (minutes < 60) return minutes + "m";
    return Math.floor(minutes / 60) + "h" + (minutes % 60 ? " " + (minutes % 60) + "m" : "");
  };
  const tick = () => {
    const ms = at - Date.now();
    left.textContent = ms > 0 ? words(Math.ceil(ms / 60000)) : "a moment — reload the page";
    if (ms <= 0) clearInterval(timer);
  };
  const timer = setInterval(tick, 30000);
  tick();
})();
