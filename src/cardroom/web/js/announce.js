/** The live region: what happens at the table, said to screen readers. */
let queue = [];
let timer = null;

export function announce(text) {
  if (!text) return;
  queue.push(text);
  clearTimeout(timer);
  timer = setTimeout(flush, 120);
}

function flush() {
  const region = document.getElementById("announcer");
  if (!region) return;
  const line = document.createElement("p");
  line.textContent = queue.join(". ");
  queue = [];
  region.append(line);
  while (region.childElementCount > 5) region.firstElementChild.remove();
}
