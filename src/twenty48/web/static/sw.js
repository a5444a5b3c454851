// The service worker: keeps this release's files so that the page opens without a network. Served
// from /sw.js (its scope: the whole app) with two lines before this one: RELEASE, an id from the
// content of the page's files, and SHELL, the addresses the page needs to open.
//
// The API is never answered from here: the server alone says what the game is. Offline, the page
// shows the last board it saw itself (lastseen.js), marked as not current.
//
// A new release (a new RELEASE makes this script differ, which the browser checks on every load)
// fetches its files in the background, then takes over at once: a page already open keeps running
// as it is (its game goes on), the next load is the new release's, and the old release's cache goes.

const OWN = "twenty48-";
const CACHE = OWN + RELEASE;

self.addEventListener("install", (event) => {
  // Where the browser can route requests itself (Chromium), the API's skip the worker altogether: no
  // worker start-up before a move. The fetch handler below leaves them alone in the other browsers.
  if (event.addRoutes) event.waitUntil(event.addRoutes({ condition: { urlPattern: "/api/*" }, source: "network" }));
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

async function precache() {
  const cache = await caches.open(CACHE);
  // Past the HTTP cache, which may still hold a previous release's copy of a file.
  await cache.addAll(SHELL.map((url) => new Request(url, { cache: "no-cache" })));
}

self.addEventListener("activate", (event) => {
  event.waitUntil(retire().then(() => self.clients.claim()));
});

async function retire() {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(OWN) && name !== CACHE).map((name) => caches.delete(name)));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  // The page by its address (with ?lang= or a #/view): this release's copy of it.
  if (request.mode === "navigate" && url.pathname === "/") event.respondWith(kept(new Request("/")));
  else if (url.pathname.startsWith("/static/")) event.respondWith(kept(request));
  // Anything else goes to the server as if there were no worker: the API above all, and the
  // manifest, which the server writes (a browser checks it for changes to an installed app).
});

// The release's copy; a file it does not hold yet (a view) is kept once fetched.
async function kept(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
}
