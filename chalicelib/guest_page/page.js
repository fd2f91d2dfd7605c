const lang = document.documentElement.lang || undefined;
for (const t of document.querySelectorAll("time[data-offset]")) {
  const d = new Date(t.dateTime);
  if (isNaN(d) || -d.getTimezoneOffset() === Number(t.dataset.offset)) continue;
  const mine = document.createElement("span");
  mine.className = "yours";
  const shown = d.toLocaleString(lang, {weekday: "short", hour: "numeric", minute: "2-digit", timeZoneName: "short"});
  mine.textContent = " (" + (t.dataset.yours || "{time} your time").replace("{time}", shown) + ")";
  t.after(mine);
}
