// The service worker of the rules-kb site: the latest edition, the search and the shell
// are stored at the first visit; every other page is stored when it is first seen.
const CACHE = "rules-kb-{{ version }}";
const PRECACHE = {{ precache }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting())
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
    }))
  );
});
