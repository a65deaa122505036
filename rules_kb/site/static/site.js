// rules-kb web edition: search as you type (offline, from the prebuilt index) and the
// service worker. No network: the index and MiniSearch are files of the site, loaded
// with <script> tags so that they work from file:// as well.
(function () {
  "use strict";
  var root = document.body.getAttribute("data-root") || "";
  var MINISEARCH = "static/vendor/minisearch-7.2.0/minisearch.umd.js";
  var INDEX = "static/search-index.js";
  // Keep in step with rules_kb/site/searchindex.py (TOKEN, STOP, fold).
  var TOKEN = /[0-9]+(?:\.[0-9]+[a-z]*)?|[\p{L}\p{N}]+/gu;
  var STOP = new Set(("a an and are as at be by for from has have if in is it its of on or that the their" +
    " them then there these they this to was were when which while who will with rule rules see").split(" "));
  var NUMBER = /^[0-9]+(\.[0-9]+[a-z]*)?$/;
  var KIND_BOOST = { s: 1.3, c: 1.3, r: 1.15, g: 1, e: 0.6 };
  var KIND_NAME = { s: "section", c: "chapter", r: "", g: "glossary", e: "example" };

  function tokenize(text) { return text.toLowerCase().match(TOKEN) || []; }
  function processTerm(term) {
    var folded = term.normalize("NFD").replace(/\p{M}/gu, "");
    return STOP.has(folded) ? null : folded;
  }
  var OPTIONS = {
    fields: ["n", "h", "x"],
    storeFields: ["n", "k", "u", "t"],
    tokenize: tokenize,
    processTerm: processTerm,
    searchOptions: {
      boost: { n: 10, h: 4, x: 1 },
      prefix: function (term) { return term.length > 1; },
      fuzzy: function (term) { return NUMBER.test(term) || term.length < 4 ? false : 0.3; },
      boostDocument: function (id, term, stored) { return KIND_BOOST[stored && stored.k] || 1; },
      combineWith: "OR"
    }
  };
  window.RULES_KB_SEARCH_OPTIONS = OPTIONS;

  var engine = null, loading = null;
  function script(src) {
    return new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = root + src;
      tag.onload = resolve;
      tag.onerror = function () { reject(new Error("could not load " + src)); };
      document.head.appendChild(tag);
    });
  }
  function load() {
    if (!loading) {
      loading = (window.MiniSearch ? Promise.resolve() : script(MINISEARCH))
        .then(function () { return window.RULES_KB_INDEX ? null : script(INDEX); })
        .then(function () {
          engine = window.MiniSearch.loadJS(window.RULES_KB_INDEX, OPTIONS);
          return engine;
        });
    }
    return loading;
  }
  window.rulesKbSearch = function (query) {
    return load().then(function () { return search(query); });
  };
  // A question is read as words: the words of asking ("does", "how", "work") and single
  // letters ("it's") are left out of it, unless nothing else is left.
  function words(query) {
    var asking = new Set(window.RULES_KB_ASKING || []);
    var kept = tokenize(query).filter(function (word) {
      return !asking.has(word) && (word.length > 1 || /[0-9]/.test(word));
    });
    return kept.length ? kept.join(" ") : query;
  }
  function search(query) {
    var hits = engine.search(words(query));
    var number = query.trim().toLowerCase().replace(/^(rule|rules|section)\s+/, "").replace(/\.$/, "");
    if (NUMBER.test(number)) {
      // The number itself first, then its subrules in document order, then the rest.
      var rank = function (hit) {
        if (hit.n === number) return hit.k === "e" ? 1 : 0;
        var rest = hit.n.slice(number.length);
        return hit.n.lastIndexOf(number, 0) === 0 && /^[a-z]+$/.test(rest) ? 2 : 3;
      };
      hits.forEach(function (hit, i) { hit.rank = rank(hit); hit.order = i; });
      hits.sort(function (a, b) {
        if (a.rank !== b.rank) return a.rank - b.rank;
        if (a.rank !== 2) return a.order - b.order;
        return a.n.length - b.n.length || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0);
      });
    }
    return hits.slice(0, 12);
  }

  var box = document.getElementById("q");
  var list = document.getElementById("hits");
  if (!box || !list) return;
  var selected = -1, timer = null;

  function show(hits, query) {
    list.textContent = "";
    list.setAttribute("data-query", query);
    selected = -1;
    if (!query) { close(); return; }
    if (!hits.length) {
      var none = document.createElement("p");
      none.textContent = "Nothing found for “" + query + "”.";
      list.appendChild(none);
    }
    hits.forEach(function (hit, i) {
      var a = document.createElement("a");
      a.href = root + hit.u;
      a.id = "hit-" + i;
      a.setAttribute("role", "option");
      var b = document.createElement("b");
      b.textContent = hit.n;
      a.appendChild(b);
      a.appendChild(document.createTextNode(hit.t));
      if (KIND_NAME[hit.k]) {
        var k = document.createElement("span");
        k.className = "k";
        k.textContent = KIND_NAME[hit.k];
        a.appendChild(k);
      }
      list.appendChild(a);
    });
    list.hidden = false;
    box.setAttribute("aria-expanded", "true");
  }
  function close() {
    list.hidden = true;
    box.setAttribute("aria-expanded", "false");
  }
  function run() {
    var query = box.value.trim();
    if (!query) { show([], ""); return; }
    window.rulesKbSearch(query).then(function (hits) {
      if (box.value.trim() === query) show(hits, query);
    }, function (error) {
      list.textContent = "";
      var p = document.createElement("p");
      p.textContent = "Search is not available: " + error.message;
      list.appendChild(p);
      list.hidden = false;
    });
  }
  function select(step) {
    var links = list.querySelectorAll("a");
    if (!links.length) return;
    if (selected >= 0) links[selected].removeAttribute("aria-selected");
    selected = (selected + step + links.length) % links.length;
    links[selected].setAttribute("aria-selected", "true");
    links[selected].scrollIntoView({ block: "nearest" });
    box.setAttribute("aria-activedescendant", links[selected].id);
  }
  box.addEventListener("focus", function () { load().catch(function () {}); }, { once: true });
  box.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(run, 60);
  });
  box.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown") { event.preventDefault(); select(1); }
    else if (event.key === "ArrowUp") { event.preventDefault(); select(-1); }
    else if (event.key === "Escape") { close(); }
    else if (event.key === "Enter") {
      event.preventDefault();
      var links = list.querySelectorAll("a");
      var chosen = links[selected >= 0 ? selected : 0];
      if (chosen) window.location.href = chosen.href;
    }
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest(".find")) close();
  });
  var asked = new URLSearchParams(window.location.search).get("q");
  if (asked) { box.value = asked; run(); }

  if ("serviceWorker" in navigator && /^https?:$/.test(window.location.protocol)) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(root + "sw.js").catch(function () {});
    });
  }
})();
