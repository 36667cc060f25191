// The search page: queries Pagefind's index, cut into shards (../pagefind/<shard>/, named
// by the form's data-shards), and lists what it finds. The first shard's script searches
// them all, the others merged into it. Without script the page still works: its links
// lead to every topic and company.
const form = document.querySelector(".search-form");
const shards = (form.dataset.shards || "").split(" ").filter(Boolean);
const input = document.querySelector("#search-q");
const status = document.querySelector("#search-status");
const list = document.querySelector("#search-results");
const LIMIT = 30;
let engine = null;
let latest = 0;

async function pagefind() {
  if (engine === null) {
    const folder = (shard) => new URL(`../pagefind/${shard}/`, import.meta.url).href;
    const found = await import(`${folder(shards[0])}pagefind.js`);
    // Every shard's addresses start at the site's root; each result's link is made relative
    // to this page, wherever the site is served.
    await found.options({ excerptLength: 24, baseUrl: "/" });
    await Promise.all(
      shards.slice(1).map((shard) => found.mergeIndex(folder(shard), { baseUrl: "/" })),
    );
    await found.init();
    engine = found;
  }
  return engine;
}

function text(html) {
  return new DOMParser().parseFromString(html, "text/html").body.textContent;
}

function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

async function run(query) {
  const turn = ++latest;
  query = query.trim();
  if (!query) {
    status.textContent = "";
    list.replaceChildren();
    return;
  }
  let found;
  try {
    const search = await (await pagefind()).search(query);
    found = await Promise.all(search.results.slice(0, LIMIT).map((result) => result.data()));
    if (turn !== latest) return;
    status.textContent = found.length
      ? `${plural(search.results.length, "result")} for “${query}”`
      : `Nothing found for “${query}”. Try another word, or browse below.`;
  } catch (error) {
    if (turn !== latest) return;
    status.textContent = "Search could not load here; browse below instead.";
    return;
  }
  list.replaceChildren(
    ...found.map((item) => {
      const entry = document.createElement("li");
      const link = document.createElement("a");
      link.href = "../" + item.url.replace(/^\/+/, "");
      link.textContent = item.meta.title || item.url;
      const excerpt = document.createElement("p");
      excerpt.className = "summary";
      excerpt.textContent = text(item.excerpt);
      entry.append(link, excerpt);
      return entry;
    }),
  );
}

let timer = 0;
input.addEventListener("input", () => {
  clearTimeout(timer);
  timer = setTimeout(() => run(input.value), 150);
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  const url = new URL(location.href);
  url.searchParams.set("q", input.value);
  history.replaceState(null, "", url);
  run(input.value);
});
const asked = new URLSearchParams(location.search).get("q");
if (asked) {
  input.value = asked;
  run(asked);
}
