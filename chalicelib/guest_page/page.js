for (const t of document.querySelectorAll("time[data-local]")) {
  const d = new Date(t.dateTime);
  if (!isNaN(d)) t.textContent = d.toLocaleString([], {dateStyle: "full", timeStyle: "short"});
}
