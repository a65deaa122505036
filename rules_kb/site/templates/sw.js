// The service worker of the rules-kb site: the latest edition, the search, the shell and
// the page the visitor landed on are stored at the first visit; every other page is stored
// when it is first seen; a page never seen is answered offline with offline.html.
const CACHE = "rules-kb-{{ version }}";
const PRECACHE = {{ precache }};
const OFFLINE = "{{ offline }}";

// The pages open when the worker is installed were loaded before it ran: store them too.
function landed(cache) {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then((windows) => Promise.all(windows
      .filter((client) => new URL(client.url).origin === self.location.origin)
      .map((client) => cache.add(new URL(client.url).href.split("#")[0]).catch(() => null))));
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(PRECACHE).then(() => landed(cache)))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => key.startsWith("rules-kb-") && key !== CACHE)
          .map((key) => caches.delete(key))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  // A folder ("…/") is its index.html, which is what was stored.
  const key = url.pathname.endsWith("/") ? new URL("index.html", url).href : request;
  event.respondWith(
    caches.match(key, { ignoreSearch: true }).then((hit) => hit || fetch(request).then((response) => {
      if (response.ok && response.type === "basic") {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    }, (failure) => {
      // Offline, and never stored: a page says so; anything else fails as it would.
      if (request.mode === "navigate") return caches.match(new URL(OFFLINE, self.location).href);
      throw failure;
    }))
  );
});
