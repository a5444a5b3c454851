// What makes the page an app, loaded after the first board: the web app manifest in the page's
// language, the iOS home-screen icon, the browser's bar in the page's colour (either theme), and the
// service worker (sw.js) that keeps the page's files so that it opens without a network.

function add(tag, attributes) {
  const element = Object.assign(document.createElement(tag), attributes);
  document.head.append(element);
  return element;
}

export function install() {
  const manifest = add("link", { rel: "manifest" });
  add("link", { rel: "apple-touch-icon", href: "/static/icons/apple-touch-icon.png" });
  const bar = add("meta", { name: "theme-color" });
  // The language and the theme are attributes of <html> (settings-ui.js, i18n.js); "system" follows
  // the device's scheme.
  const follow = () => {
    manifest.href = `/manifest.webmanifest?lang=${document.documentElement.lang}`;
    bar.content = getComputedStyle(document.body).backgroundColor;
  };
  follow();
  new MutationObserver(follow).observe(document.documentElement, { attributeFilter: ["lang", "data-theme"] });
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", follow);
  // Only where the page is a secure context (HTTPS, or this machine).
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").then(
    // An app left open for days looks for a new release whenever it is shown again (a load does by
    // itself); one that is found is fetched in the background and takes over at the next load.
    (registration) => document.addEventListener("visibilitychange", () => document.hidden || registration.update().catch(() => {})),
    (error) => console.warn("no offline copy of the page:", error),
  );
}
