// rules-kb web edition: search as you type (offline, from the prebuilt index) and the
// service worker. No network: the index and MiniSearch are files of the site, loaded
// with <script> tags so that they work from file:// as well.
(function () {
  "use strict";
  var root = document.body.getAttribute("data-root") || "";
  var MINISEARCH = "static/vendor/minisearch-7.2.0/minisearch.umd.js";
  var STEMMER = "static/vendor/stemmer-2.0.1/stemmer.js";
  var READING = "static/reading.js";
  var INDEX = "static/search-index.js";
  // Keep in step with rules_kb/site/searchindex.py (TOKEN, fold).
  var TOKEN = /[0-9]+(?:\.[0-9]+[a-z]*)?|[\p{L}\p{N}]+/gu;
  var NUMBER = /^[0-9]+(\.[0-9]+[a-z]*)?$/;
  var KIND_BOOST = { s: 1.3, c: 1.3, r: 1.15, g: 1, e: 0.6 };
  var KIND_NAME = { s: "section", c: "chapter", r: "", g: "glossary", e: "example" };

  function tokenize(text) { return text.toLowerCase().match(TOKEN) || []; }
  // A token as the index keeps it: the term `rules-kb search` keeps (reading.js `term`).
  function processTerm(term) {
    return window.RulesKbReading.term(window.RULES_KB_READING || {}, term) || null;
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

  var engine = null, reader = null, loading = null;
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
        .then(function () { return window.RulesKbPorter ? null : script(STEMMER); })
        .then(function () { return window.RulesKbReading ? null : script(READING); })
        .then(function () { return window.RULES_KB_INDEX ? null : script(INDEX); })
        .then(function () {
          engine = window.MiniSearch.loadJS(window.RULES_KB_INDEX, OPTIONS);
          reader = window.rulesKbReader = new window.RulesKbReading.Reader(window.RULES_KB_READING, engine, window.RULES_KB_INDEX);
          return engine;
        });
    }
    return loading;
  }
  // A result's page, from its shortened stored link (searchindex.py `link`).
  function link(hit) {
    var folder = "e/" + window.RULES_KB_EDITION + "/";
    if (hit.u === undefined) return folder + hit.n.split(".")[0] + ".html#" + hit.n;
    return hit.u.charAt(0) === "/" ? hit.u.slice(1) : folder + hit.u;
  }
  window.rulesKbLink = link;
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
  // What the last question was read as (the terms and situations recognised).
  window.rulesKbRead = null;
  function search(query) {
    window.rulesKbRead = null;
    var number = query.trim().toLowerCase().replace(/^(rule|rules|section|cr)\s+/, "")
      .replace(/[.?]+$/, "");
    if (!NUMBER.test(number) && reader.isQuestion(query)) {
      var answered = reader.ask(query);
      if (answered.hits.length) {
        window.rulesKbRead = answered.recognised;
        return answered.hits.slice(0, 12);
      }
    }
    var hits = engine.search(words(query));
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
  var status = document.getElementById("hits-status");
  var panel = list && list.parentNode;
  if (!box || !list || !status) return;
  var selected = -1, timer = null;

  function open(message) {
    status.textContent = message;
    panel.hidden = false;
    box.setAttribute("aria-expanded", "true");
  }
  function show(hits, query) {
    list.textContent = "";
    list.setAttribute("data-query", query);
    box.removeAttribute("aria-activedescendant");
    selected = -1;
    if (!query) { close(); return; }
    hits.forEach(function (hit, i) {
      var a = document.createElement("a");
      a.href = root + link(hit);
      a.id = "hit-" + i;
      a.setAttribute("role", "option");
      a.setAttribute("aria-selected", "false");
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
    open(hits.length ? readAs(window.rulesKbRead) : "Nothing found for “" + query + "”.");
  }
  // What a question was read as, as `show` tells it: "ETB: enters the battlefield (603.6a)".
  // At most four, the situations told first: on a phone they say most in least room.
  function readAs(recognised) {
    var told = (recognised || []).filter(function (item) {
      return item.entry.r.length || item.words !== item.entry.t.toLowerCase();
    });
    told = told.filter(function (item) { return item.situation; })
      .concat(told.filter(function (item) { return !item.situation; }))
      .map(function (item) {
        var rules = item.entry.r.slice(0, 2).join(", ");
        return item.words + ": " + item.entry.t + (rules ? " (" + rules + ")" : "");
      });
    return told.length ? "Read as " + told.slice(0, 4).join("; ") : "";
  }
  function close() {
    panel.hidden = true;
    box.setAttribute("aria-expanded", "false");
    box.removeAttribute("aria-activedescendant");
  }
  function run() {
    var query = box.value.trim();
    if (!query) { show([], ""); return; }
    if (!engine) open("Loading the search…");
    window.rulesKbSearch(query).then(function (hits) {
      if (box.value.trim() === query) show(hits, query);
    }, function (error) {
      list.textContent = "";
      open("Search is not available: " + error.message);
    });
  }
  function select(step) {
    var links = list.querySelectorAll("a");
    if (!links.length) return;
    if (selected >= 0) links[selected].setAttribute("aria-selected", "false");
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

  // A rule's page: dated links (#2019-01-25: the version in force that day) and a
  // comparison of any two versions, word by word (jsdiff's diffWordsWithSpace).
  var versions = Array.prototype.slice.call(document.querySelectorAll(".hist > li.v"));
  var DAY = /^#?([0-9]{4}-[0-9]{2}-[0-9]{2})$/;
  // Typography is never a change: quotes and dashes compared in one form each (one
  // character for one, as rules_kb/typography.py folds them).
  function fold(text) {
    return text.replace(/[\u2018\u2019\u201a\u201b\u2032`\u00b4]/g, "'")
      .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
      .replace(/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, "-");
  }
  // A version's text: its word diff against the version before, less what it struck out.
  function textOf(li) {
    var body = li.querySelector(".t").cloneNode(true);
    Array.prototype.forEach.call(body.querySelectorAll("del"), function (cut) { cut.remove(); });
    return body.textContent;
  }
  function spanOf(li) {
    var until = li.getAttribute("data-until");
    return li.getAttribute("data-first") + (until ? " until " + until : ", in force now");
  }
  function dated() {
    var status = document.getElementById("dated");
    var asked = DAY.exec(decodeURIComponent(window.location.hash));
    versions.forEach(function (li) { li.classList.remove("on"); });
    if (!status) return;
    if (!asked) { status.hidden = true; return; }
    var day = asked[1];
    var found = versions.filter(function (li) {
      var until = li.getAttribute("data-until");
      return li.getAttribute("data-first") <= day && (!until || day < until);
    })[0];
    status.hidden = false;
    if (found) {
      found.classList.add("on");
      status.textContent = "In force on " + day + ": " + found.getAttribute("data-key") +
        " as it read from " + spanOf(found) + ".";
      var at = versions.indexOf(found);
      if (at > 0 && window.Diff && older) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "to-today";
        button.textContent = "Compare with today’s text";
        button.addEventListener("click", function () {
          older.value = String(at);
          newer.value = "0";
          compare();
          older.form.scrollIntoView({ block: "start" });
        });
        status.appendChild(document.createTextNode(" "));
        status.appendChild(button);
      }
      found.insertBefore(status, found.firstChild);  // (said where the reader lands)
      found.scrollIntoView({ block: "start" });
    } else {
      var oldest = versions[versions.length - 1];
      var first = oldest ? oldest.getAttribute("data-first") : "";
      status.textContent = day < first
        ? "Not in the rules on " + day + ": it first appeared on " + first + "."
        : "No stored edition was in force on " + day + ".";
    }
  }
  var older = document.getElementById("cmp-old"), newer = document.getElementById("cmp-new");
  var compared = document.getElementById("compared");
  function compare() {
    var a = versions[+older.value], b = versions[+newer.value];
    compared.textContent = "";
    var head = document.createElement("p");
    head.className = "m";
    head.textContent = a.getAttribute("data-key") + " of " + spanOf(a) + " → " +
      b.getAttribute("data-key") + " of " + spanOf(b);
    compared.appendChild(head);
    compared.appendChild(wordDiff(document.createElement("p"), textOf(a), textOf(b)));
    // The examples too, each against the one in its place (one gone is all deletion).
    var wasEx = examplesOf(a), nowEx = examplesOf(b);
    for (var k = 0; k < Math.max(wasEx.length, nowEx.length); k++) {
      var example = document.createElement("p");
      example.className = "ex";
      example.appendChild(document.createTextNode("Example: "));
      compared.appendChild(wordDiff(example, wasEx[k] || "", nowEx[k] || ""));
    }
    compared.hidden = false;
  }
  function examplesOf(li) {
    return JSON.parse(li.getAttribute("data-examples") || "[]");
  }
  // The word diff of two texts, appended to `into`.
  function wordDiff(into, was, now) {
    var parts = window.Diff.diffWordsWithSpace(fold(was), fold(now));
    // Shown in the rule's own typography: folding keeps every length, so each part is
    // cut from the text it came from (the old one for deletions, else the new one).
    var atOld = 0, atNew = 0;
    var whole = parts.every(function (part) {
      var size = part.value.length;
      part.shown = part.removed ? was.substr(atOld, size) : now.substr(atNew, size);
      var from = part.removed ? fold(was.substr(atOld, size)) : fold(now.substr(atNew, size));
      if (!part.added) atOld += size;
      if (!part.removed) atNew += size;
      return from === part.value;
    });
    parts.forEach(function (part) {
      var tag = part.added ? "ins" : part.removed ? "del" : "span";
      var piece = document.createElement(tag);
      piece.textContent = whole ? part.shown : part.value;
      into.appendChild(piece);
    });
    return into;
  }
  if (older && newer && window.Diff && versions.length > 1) {
    versions.forEach(function (li, i) {
      [older, newer].forEach(function (select) {
        var option = document.createElement("option");
        option.value = String(i);
        option.textContent = li.getAttribute("data-key") + ", " + spanOf(li);
        select.appendChild(option);
      });
    });
    older.value = "1";
    newer.value = "0";
    older.addEventListener("change", compare);
    newer.addEventListener("change", compare);
    older.form.hidden = false;
    compare();
  }

  if (versions.length) {
    window.addEventListener("hashchange", dated);
    dated();
  }

  if ("serviceWorker" in navigator && /^https?:$/.test(window.location.protocol)) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(root + "sw.js").catch(function () {});
    });
  }
})();
