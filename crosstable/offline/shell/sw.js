// Keeps every file of the app after the first load, so it starts without a network.
const SCOPE = self.registration.scope;

async function fill() {
  const manifest = await (await fetch("manifest.json", { cache: "no-store" })).json();
  const name = "crosstable-offline-" + manifest.version;
  const cache = await caches.open(name);
  const files = ["./", "manifest.json", ...Object.keys(manifest.files)];
  await cache.addAll(files.map((f) => new URL(f, SCOPE).href));
  for (const old of await caches.keys()) {
    if (old.startsWith("crosstable-offline-") && old !== name) await caches.delete(old);
  }
}

self.addEventListener("install", (event) => { event.waitUntil(fill().then(() => self.skipWaiting())); });
self.addEventListener("activate", (event) => { event.waitUntil(self.clients.claim()); });
self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  event.respondWith((async () => {
    const url = new URL(event.request.url);
    url.search = "";
    const hit = await caches.match(url.href, { ignoreVary: true });
    if (hit) return hit;
    return fetch(event.request);
  })());
});
