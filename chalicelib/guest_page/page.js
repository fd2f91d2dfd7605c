for (const t of document.querySelectorAll("time[data-offset]")) {
  const d = new Date(t.dateTime);
  if (isNaN(d) || -d.getTimezoneOffset() === Number(t.dataset.offset)) continue;
  const mine = document.createElement("span");
  mine.className = "yours";
  mine.textContent = " (" + d.toLocaleString([], {weekday: "short", hour: "numeric", minute: "2-digit", timeZoneName: "short"}) + " your time)";
  t.after(mine);
}
