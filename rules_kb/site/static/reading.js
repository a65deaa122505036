// rules-kb web edition: a question read as `rules-kb search` and `show` read it.
//
// This is rules_kb/search/questions.py (the question's tokens, the names written mid-
// sentence, the vocabulary and the situations it tells), answers.py (its concepts, the
// evidence for each candidate and its weighing) and ranking.py (the candidates: what the
// index finds, the rules the concepts govern, a heading's subrules) over the data
// rules_kb/search/portable.py writes into the search index. Keep them in step:
// tests/site/test_site.py asks the labelled questions of both.
//
// What differs, for the browser: the candidates' words are those MiniSearch matched (a
// phrase of the vocabulary is named where the build listed it word for word), and pairs of
// adjacent words do not count. Relevance is search's: BM25 with the document frequencies
// over every edition and each text's length in index terms, from the index's postings.
(function (global) {
  "use strict";

  var FOLD = [["\u2018", "'"], ["\u2019", "'"], ["\u201c", '"'], ["\u201d", '"'],
    ["\u2013", "-"], ["\u2014", "-"], ["\u2011", "-"]];
  // questions.py _TOKEN: a P/T or counter, mana or tap symbols, a rule number, a word
  var TOKEN = /[+-]?[0-9xX*]+\/[+-]?[0-9xX*]+|(?:\{[^{}\s]{1,5}\})+|\d{3}\.\d+[a-z]{0,2}|[A-Za-z0-9]+(?:'[A-Za-z0-9]+)*/g;
  // rules_kb/search/index.py TOKEN: how the index cuts a text into terms
  var TERM = /\{[^{}\s]{1,5}\}|\w+(?:\.?\w+)*/g;
  var MAX_TOKENS = 80;
  var SENTENCE_ENDS = ".!?:;(\"'-";
  var NAME_LINKS = { of: true, the: true };
  var PUNCTUATION = /[,;:.!?]/;
  var CARD_QUOTE = /\[\[[^\[\]]+\]\]|\{[^{}]*[A-Za-z][^{}]*\s[^{}]*\}/g;
  var LETTER_RANGE = /\b(\d{3}\.\d+)([a-y])\s*(?:-|\u2013|\u2014|to)\s*([b-z])\b/g;
  var TITLE_CASE = 0.75;
  var ARTICLES = { a: true, an: true, the: true };
  var KEYWORD_CHAPTERS = ["701.", "702."];
  var TOKEN_TYPES = "111.10";

  function fold(text) {
    FOLD.forEach(function (pair) { text = text.split(pair[0]).join(pair[1]); });
    return text;
  }
  function plain(token) { return token.normalize("NFD").replace(/\p{M}/gu, ""); }
  function isUpper(text) { return text === text.toUpperCase() && text !== text.toLowerCase(); }
  function matches(folded) {
    var found = [], match;
    TOKEN.lastIndex = 0;
    while ((match = TOKEN.exec(folded)) !== null && found.length < MAX_TOKENS) {
      found.push({ text: match[0], start: match.index, end: match.index + match[0].length });
    }
    return found;
  }
  function tokens(text) {
    return matches(fold(text)).map(function (m) {
      var token = m.text.toLowerCase();
      return token.slice(-2) === "'s" ? token.slice(0, -2) : token;
    });
  }
  function shown(token) { return token.charAt(0) === "{" ? token.toUpperCase() : token; }

  // The index term of a token (accents dropped): the one the index gives for a word of the
  // edition, else none for a stop word or a single letter, else its Porter stem by the
  // vendored stemmer ("" for none).
  var stops = new WeakMap();
  function term(data, token) {
    var folded = plain(token);
    var known = data.stems && data.stems[folded];
    if (known !== undefined) return known;
    var stop = stops.get(data);
    if (!stop) { stop = new Set(data.stop || []); stops.set(data, stop); }
    if (folded.length < 2 || stop.has(folded)) return "";
    var porter = global.RulesKbPorter;
    return porter ? porter.stemmer(folded) : folded;
  }

  function Reader(data, engine, index) {
    this.data = data;
    this.engine = engine;
    this.weights = data.weights;
    this.asking = new Set(data.asking);
    this.leading = new Set(data.leading);
    // search's document frequencies, over every edition's documents, as its ranking
    // reads them
    this.df = data.frequencies;
    this.documents = data.indexed;
    // each text's length in index terms and the index's postings (`index`, as the build
    // wrote it), for relevance as search scores it (answers.py Relevance)
    this.lengths = data.lengths;
    var fields = index.fieldIds, postings = this.postings = new Map();
    index.index.forEach(function (item) {
      var text = item[1][fields.x], heading = item[1][fields.h];
      postings.set(item[0], { x: text || null, h: heading || null });
    });
    this.titles = new Set(data.titles);
    this.long = data.long;
    this.cited = data.cited;
    this.phrasesIn = {};
    var phrasesIn = this.phrasesIn;
    Object.keys(data.phrases_in || {}).forEach(function (form) { phrasesIn[form] = new Set(data.phrases_in[form]); });
    this.settings = data.settings;
    this.sections = Object.keys(data.settings).filter(function (k) { return k.length === 1; });
    this.phrases = {};
    this.singles = null;
    var self = this;
    data.phrases.forEach(function (item) {
      var phrase = item[0], entry = data.entries[item[1]];
      (self.phrases[phrase[0]] = self.phrases[phrase[0]] || []).push([phrase, entry]);
    });
    this.nodes = {};
    this.examples = {};
    this.glossary = {};
    for (var id = 0; id < engine.documentCount; id++) {
      var stored = engine.getStoredFields(id);
      if (!stored) continue;
      if (stored.k === "g") this.glossary[stored.n] = id;
      else if (stored.k === "e") (this.examples[stored.n] = this.examples[stored.n] || []).push(id);
      else if (!(stored.n in this.nodes)) this.nodes[stored.n] = { id: id, children: [] };
    }
    Object.keys(this.nodes).forEach(function (number) {
      var up = parentOf(number);
      if (up !== null && self.nodes[up]) self.nodes[up].children.push(number);
    });
  }

  // The rule a number sits in: 702.19b -> 702.19 -> 702 -> 7.
  function parentOf(number) {
    var bare = number.replace(/[a-z]+$/, "");
    if (bare !== number) return bare;
    if (number.indexOf(".") >= 0) return number.split(".")[0];
    if (number.length === 3) return number.charAt(0);
    return null;
  }

  // the words of a question ----------------------------------------------------------

  Reader.prototype.stem = function (token) { return term(this.data, token); };
  // The index terms of a text (answers.py: the analyser's stems).
  Reader.prototype.form = function (text) {
    var self = this;
    return (text.toLowerCase().match(TERM) || []).map(function (t) { return self.stem(t); })
      .filter(function (t) { return t; });
  };
  Reader.prototype.normal = function (token) {
    var found = this.form(token);
    return found.length === 1 ? found[0] : "";
  };
  Reader.prototype.frequency = function (term) { return this.df[term] || 0; };

  Reader.prototype.isQuestion = function (text) {
    var found = tokens(text);
    if (!found.length) return false;
    var trimmed = text.replace(/\s+$/, "");
    if (trimmed.slice(-1) === "?" || text.indexOf("? ") >= 0 || this.leading.has(found[0])) return true;
    if (found.every(function (t) { return t.charAt(0) === "{"; })) return true;
    var end = trimmed.slice(-1);
    return new Set(found).size >= this.data.situationWords && ".:\")".indexOf(end) < 0;
  };

  function citedCards(text) {
    var folded = fold(text), quoted = [], match;
    CARD_QUOTE.lastIndex = 0;
    while ((match = CARD_QUOTE.exec(folded)) !== null) quoted.push([match.index, match.index + match[0].length]);
    var runs = [];
    matches(folded).forEach(function (m, at) {
      quoted.forEach(function (span, which) {
        if (span[0] <= m.start && m.start < span[1]) {
          var last = runs[runs.length - 1];
          if (last && last[2] === which) last[1] = at + 1;
          else runs.push([at, at + 1, which]);
        }
      });
    });
    return runs.map(function (r) { return [r[0], r[1]]; });
  }

  // For each token, whether it is written as a name mid-sentence (a card's, most likely).
  function capitalised(text) {
    var folded = fold(text), found = matches(folded), cited = new Set();
    citedCards(text).forEach(function (r) { for (var at = r[0]; at < r[1]; at++) cited.add(at); });
    var words = found.filter(function (m) { return /^[A-Za-z]/.test(m.text); });
    var capitals = words.filter(function (m) { return isUpper(m.text.charAt(0)); }).length;
    if (words.length >= 3 && capitals >= TITLE_CASE * words.length) {
      return found.map(function (_m, at) { return cited.has(at); });
    }
    var result = [];
    found.forEach(function (m, at) {
      var before = folded.slice(0, m.start);
      if (cited.has(at)) { result.push(true); return; }
      if (before.slice(-1) === "-" && result.length) { result.push(result[result.length - 1]); return; }
      var stripped = before.replace(/\s+$/, "");
      var starts = !stripped || SENTENCE_ENDS.indexOf(stripped.slice(-1)) >= 0;
      var token = m.text;
      result.push(!starts && isUpper(token.charAt(0)) && !isUpper(token) && token !== "I");
    });
    return result;
  }

  function nameRuns(found, marks) {
    var runs = [], at = 0;
    while (at < marks.length) {
      if (!marks[at]) { at++; continue; }
      var end = at + 1;
      for (;;) {
        var step = end;
        while (step < marks.length && !marks[step] && NAME_LINKS[found[step]]) step++;
        if (step < marks.length && marks[step]) { end = step + 1; continue; }
        break;
      }
      if (end - at > 1) runs.push([at, end]);
      at = end;
    }
    return runs;
  }

  function breaks(text) {
    var folded = fold(text), found = matches(folded), ends = new Set();
    for (var at = 0; at + 1 < found.length; at++) {
      if (PUNCTUATION.test(folded.slice(found[at].end, found[at + 1].start))) ends.add(at);
    }
    return ends;
  }

  // the vocabulary ---------------------------------------------------------------------

  Reader.prototype.spells = function (token) {
    return (this.phrases[token] || []).some(function (o) { return o[0].length === 1 && o[0][0] === token; });
  };
  Reader.prototype.single = function () {
    if (!this.singles) {
      var singles = {}, self = this;
      Object.keys(this.phrases).forEach(function (first) {
        self.phrases[first].forEach(function (option) {
          if (option[0].length !== 1) return;
          var key = self.normal(option[0][0]) || option[0][0];
          if (!(key in singles)) singles[key] = option[1];
        });
      });
      this.singles = singles;
    }
    return this.singles;
  };
  Reader.prototype.recognise = function (found, ends) {
    var self = this, result = [], at = 0;
    var normalised = found.map(function (t) { return self.normal(t) || t; });
    while (at < found.length) {
      var hit = null;
      var list = this.phrases[found[at]] || [];
      for (var i = 0; i < list.length && !hit; i++) {
        var phrase = list[i][0], fits = true;
        for (var k = 0; k < phrase.length; k++) {
          if (found[at + k] !== phrase[k]) { fits = false; break; }
        }
        for (var e = at; fits && e < at + phrase.length - 1; e++) if (ends.has(e)) fits = false;
        if (fits) hit = [phrase.length, list[i][1]];
      }
      if (!hit && Object.prototype.hasOwnProperty.call(this.single(), normalised[at])) {
        hit = [1, this.single()[normalised[at]]];
      }
      if (!hit) { at++; continue; }
      result.push({ words: found.slice(at, at + hit[0]).map(shown).join(" "), entry: hit[1],
                    start: at, end: at + hit[0] });
      at += hit[0];
    }
    return result;
  };

  Reader.prototype.situationsIn = function (found) {
    var self = this;
    var normalised = found.map(function (t) { return self.normal(t) || t; });
    var where = {};
    found.forEach(function (token, position) {
      (where[token] = where[token] || []).push(position);
      if (normalised[position] !== token) (where[normalised[position]] = where[normalised[position]] || []).push(position);
    });
    function at(phrase) {
      var written = phrase[0], forms = phrase[1], width = written.length;
      var starts = (where[written[0]] || []).concat(where[forms[0]] || []).sort(function (a, b) { return a - b; });
      for (var s = 0; s < starts.length; s++) {
        var start = starts[s], fits = start + width <= found.length;
        for (var k = 1; fits && k < width; k++) {
          fits = found[start + k] === written[k] || normalised[start + k] === forms[k];
        }
        if (fits) return start;
      }
      return null;
    }
    var result = [];
    this.data.situations.forEach(function (situation) {
      var spans = [];
      for (var g = 0; g < situation.g.length; g++) {
        var named = [];
        situation.g[g].forEach(function (phrase) {
          var start = at(phrase);
          if (start !== null) named.push([start, phrase[0].length]);
        });
        if (!named.length) return;
        named.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
        spans.push([named[0][0], named[0][0] + named[0][1]]);
      }
      spans.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
      var words = spans.map(function (s) { return found.slice(s[0], s[1]).map(shown).join(" "); })
        .join(self.data.situationJoin);
      result.push({ words: words, entry: { t: situation.n, r: situation.r, w: [], m: [] },
                    start: spans[0][0], end: spans[spans.length - 1][1], situation: true });
    });
    return result;
  };

  // the concepts ------------------------------------------------------------------------

  Reader.prototype.weight = function (forms) {
    var self = this, rarest = [];
    forms.forEach(function (form) {
      if (form.length) rarest.push(Math.min.apply(null, form.map(function (p) { return self.frequency(p); })));
    });
    var most = rarest.length ? Math.max.apply(null, rarest) : this.documents;
    return Math.log(1 + this.documents / (1 + most));
  };

  Reader.prototype.concept = function (item) {
    var self = this, w = this.weights, entry = item.entry, seen = {}, forms = [];
    function add(form) { var key = form.join(" "); if (form.length && !seen[key]) { seen[key] = true; forms.push(form); } }
    add(this.form(item.words));
    entry.w.concat(entry.m, [entry.t]).forEach(function (phrase) {
      var form = self.form(phrase);
      if (form.length > 1 || (phrase.split(/\s+/).length === 1 && form.length && self.frequency(form[0]) <= w.COMMON)) add(form);
    });
    if (!forms.length && !entry.r.length) return null;
    var typed = [this.form(item.words)].filter(function (f) { return f.length; });
    if (!typed.length || !typed.every(function (f) { return f.every(function (p) { return self.frequency(p); }); })) {
      typed = entry.m.slice(0, 1).concat([entry.t]).map(function (p) { return self.form(p); })
        .filter(function (f) { return f.length; }).slice(0, 1);
      if (!typed.length) typed = forms.slice(0, 1);
    }
    var named = entry.r.length ? w.NAMED : 1;
    return { words: item.words, term: entry.t, forms: forms, rules: entry.r,
             weight: named * Math.max(1, this.weight(typed)), lift: entry.b ? w.BROAD_LIFT : 1 };
  };

  Reader.prototype.concepts = function (text) {
    var self = this, w = this.weights;
    var found = tokens(text), marks = capitalised(text), ends = breaks(text);
    var runs = nameRuns(found, marks), cards = citedCards(text);
    var recognised = this.recognise(found, ends).filter(function (item) {
      var inName = runs.some(function (r) { return r[0] <= item.start && item.end <= r[1] && r[1] - r[0] > item.end - item.start; });
      var inCard = cards.some(function (r) { return r[0] <= item.start && item.start < r[1]; });
      var asName = item.end - item.start === 1 && item.start < marks.length && marks[item.start] && !self.spells(found[item.start]);
      return !inName && !inCard && !asName;
    });
    var result = [], terms = {};
    recognised.forEach(function (item) {
      if (terms[item.entry.t]) return;
      terms[item.entry.t] = true;
      var concept = self.concept(item);
      if (concept) result.push(concept);
    });
    var covered = new Set();
    recognised.forEach(function (item) { for (var at = item.start; at < item.end; at++) covered.add(at); });
    var seen = new Set();
    result.forEach(function (c) { c.forms.forEach(function (f) { seen.add(f.join(" ")); }); });
    var symbolsOnly = found.every(function (t) { return t.charAt(0) === "{" || self.asking.has(t); });
    var numbers = new Set(found.filter(function (t) { return t.indexOf(".") >= 0 && self.nodes[t]; }));
    var range;
    LETTER_RANGE.lastIndex = 0;
    while ((range = LETTER_RANGE.exec(text)) !== null) {
      for (var code = range[2].charCodeAt(0) + 1; code <= range[3].charCodeAt(0); code++) {
        var number = range[1] + String.fromCharCode(code);
        if (this.nodes[number] && !numbers.has(number)) {
          numbers.add(number);
          result.push({ words: number, term: number, forms: [], rules: [number], weight: w.NAMED * this.weight([[number]]), lift: 1 });
        }
      }
    }
    found.forEach(function (token, at) {
      if (covered.has(at) || self.asking.has(token)) return;
      if (token.charAt(0) === "{" && !symbolsOnly) return;
      if (numbers.has(token)) {
        result.push({ words: token, term: token, forms: [], rules: [token], weight: w.NAMED * self.weight([[token]]), lift: 1 });
        return;
      }
      var form = self.form(token), key = form.join(" ");
      if (!form.length || seen.has(key) || !form.every(function (p) { return self.frequency(p); })) return;
      seen.add(key);
      var named = at < marks.length && marks[at] ? w.CARD_NAME : 1;
      result.push({ words: shown(token), term: null, forms: [form], rules: [], weight: named * self.weight([form]), lift: 1 });
    });
    var told = this.situationsIn(found);
    var rest = result.reduce(function (sum, c) { return sum + c.weight; }, 0);
    told.forEach(function (item) {
      result.push({ words: item.words, term: item.entry.t, forms: [], rules: item.entry.r, weight: w.SITUATION * rest, lift: 1 });
      recognised.push(item);
    });
    return { asked: result, recognised: recognised };
  };

  // the ranking -------------------------------------------------------------------------

  function governs(rule, number) {
    if (number === rule) return true;
    if (number.lastIndexOf(rule, 0) !== 0) return false;
    var rest = number.charAt(rule.length);
    return rule.indexOf(".") >= 0 ? /[a-z]/.test(rest) : rest === ".";
  }
  function keywordRule(number) { return number.replace(/[a-z]+$/, ""); }
  function family(key) { return key.lastIndexOf("g:", 0) === 0 ? key : keywordRule(key); }

  Reader.prototype.settingsNamed = function (asked) {
    var self = this, named = new Set(), stems = new Set();
    asked.forEach(function (c) { c.forms.forEach(function (f) { f.forEach(function (p) { stems.add(p); }); }); });
    Object.keys(this.settings).forEach(function (key) {
      if (self.settings[key].some(function (word) { return stems.has(word); })) named.add(key);
    });
    asked.forEach(function (c) {
      c.rules.forEach(function (rule) {
        if (self.sections.indexOf(rule.charAt(0)) >= 0) named.add(rule.split(".")[0]);
        else if (rule.lastIndexOf(TOKEN_TYPES, 0) === 0) named.add(rule);
      });
    });
    Array.from(named).forEach(function (key) {
      if (self.sections.indexOf(key.charAt(0)) >= 0 && (key.length === 1 || key.slice(1) === "00")) named.add(key.charAt(0));
    });
    return named;
  };
  Reader.prototype.elsewhere = function (key, named) {
    if (key.lastIndexOf("g:", 0) === 0) return false;
    if (this.sections.indexOf(key.charAt(0)) >= 0) {
      return !named.has(key.charAt(0)) && !named.has(key.split(".")[0]) && !named.has(key);
    }
    if (key.lastIndexOf(TOKEN_TYPES, 0) === 0 && key.length > TOKEN_TYPES.length) {
      return !named.has(key) && !named.has(TOKEN_TYPES);
    }
    return false;
  };

  Reader.prototype.subtree = function (number, into) {
    if (!this.nodes[number]) return;
    into.add(number);
    var queue = this.nodes[number].children.slice(), added = 0;
    while (queue.length && added < this.weights.SUBTREE) {
      var child = queue.shift();
      into.add(child);
      added++;
      queue.push.apply(queue, this.nodes[child].children);
    }
  };

  // The hits of a question, best first: {n, k, u, t, matched} as the search list shows
  // them, with what the question was read as.
  Reader.prototype.ask = function (text) {
    var self = this, w = this.weights;
    var read = this.concepts(text), asked = read.asked;
    if (!asked.length) return { hits: [], recognised: read.recognised };
    // every stem of the question: 1 as typed, EXPANSION for a concept's other words
    var share = {}, retrieve = {};
    asked.forEach(function (c) {
      c.forms.forEach(function (form, at) {
        var part = at === 0 ? 1 : w.EXPANSION;
        form.forEach(function (p) {
          share[p] = Math.max(share[p] || 0, part);
          retrieve[p] = Math.max(retrieve[p] || 0, c.weight * part);
        });
      });
    });
    var words = Object.keys(share).filter(function (p) { return self.frequency(p); });
    var results = words.length ? this.engine.search(words.join(" "), {
      fields: ["x"], prefix: false, fuzzy: false, combineWith: "OR",
      tokenize: function (s) { return s.split(" "); }, processTerm: function (t) { return t; },
      boostTerm: function (term) { return share[term] || 1; },
      boostDocument: function () { return 1; },
      bm25: { k: w.BM25_K1, b: w.BM25_B, d: 0 }
    }) : [];
    var byId = new Map();
    results.forEach(function (r) { byId.set(r.id, r); });
    // the candidates: the documents holding the rarer words, best by their weights
    var rare = words.slice().sort(function (a, b) { return self.frequency(a) - self.frequency(b); });
    var kept = new Set(), postings = 0;
    for (var i = 0; i < rare.length; i++) {
      postings += this.frequency(rare[i]);
      if (kept.size >= w.RETRIEVE || (postings > w.POSTINGS && kept.size >= 2)) break;
      kept.add(rare[i]);
    }
    var found = results.map(function (r) {
      var sum = 0;
      Object.keys(r.match).forEach(function (term) {
        if (kept.has(term)) sum += retrieve[term] * Math.log(1 + self.documents / (1 + self.frequency(term)));
      });
      return [r, sum];
    }).filter(function (pair) { return pair[1] > 0; })
      .sort(function (a, b) { return b[1] - a[1]; }).slice(0, w.CANDIDATES);
    var rules = new Set(), examples = {}, glossary = [];
    found.forEach(function (pair) {
      var r = pair[0];
      if (r.k === "g") { if (glossary.indexOf(r.id) < 0) glossary.push(r.id); }
      else if (self.nodes[r.n]) {
        if (r.k === "e") (examples[r.n] = examples[r.n] || []).push(r.id);
        rules.add(r.n);
      }
    });
    asked.forEach(function (c) { c.rules.forEach(function (rule) { self.subtree(rule, rules); }); });
    Array.from(rules).forEach(function (n) { if (self.nodes[n].children.length) self.subtree(n, rules); });
    var rows = [];
    Array.from(rules).sort().forEach(function (number) {
      var node = self.nodes[number];
      rows.push({ key: number, id: node.id, heading: self.titles.has(number), parent: node.children.length > 0 });
      (examples[number] || []).forEach(function (id) { rows.push({ key: number, id: id, example: true, shows: node.id }); });
    });
    glossary.forEach(function (id) { rows.push({ key: "g:" + self.engine.getStoredFields(id).n, id: id, glossary: true }); });
    var top = 0, relevance = this.relevance(asked);
    rows.forEach(function (row) {
      row.relevance = relevance(row.id, row.glossary);
      top = Math.max(top, row.relevance);
    });
    top = top || 1;
    var named = this.settingsNamed(asked), total = asked.reduce(function (s, c) { return s + c.weight; }, 0) || 1;
    var best = {};
    rows.forEach(function (row) {
      var r = byId.get(row.id), present = new Set(r ? Object.keys(r.match) : []);
      var matched = [], covered = 0, lifted = 0, key = row.key;
      asked.forEach(function (c) {
        var governed = !row.glossary && c.rules.some(function (rule) { return governs(rule, key); });
        var isNamed = c.forms.some(function (f) {
          if (!f.every(function (p) { return present.has(p); })) return false;
          var docs = f.length > 1 ? self.phrasesIn[f.join(" ")] : null;
          return !docs || docs.has(row.id);
        });
        if (isNamed || governed) { matched.push(c.words); covered += c.weight; }
        if (governed) lifted += c.lift * c.weight / total;
      });
      var foreign = (key.lastIndexOf(KEYWORD_CHAPTERS[0], 0) === 0 || key.lastIndexOf(KEYWORD_CHAPTERS[1], 0) === 0) &&
        !asked.some(function (c) { return c.rules.some(function (rule) { return governs(keywordRule(rule), key) || governs(keywordRule(key), rule); }); });
      var coverage = covered / total;
      var score = w.COVERAGE * coverage * coverage + w.RELEVANCE * row.relevance / top + w.LIFT * lifted +
        w.JOINS * (matched.length >= 2) - w.HEADING * !!row.heading - w.PARENT * (!!row.parent && !row.heading) -
        w.GLOSSARY * !!row.glossary - w.FOREIGN_KEYWORD * foreign - w.LONG_TEXT * (self.long[row.id] || 0) +
        w.CITED * (self.cited[key] || 0) - w.ELSEWHERE * self.elsewhere(key, named);
      if (row.example) score *= w.EXAMPLE;
      if (!(key in best) || score > best[key].score) {
        best[key] = { key: key, id: row.shows !== undefined ? row.shows : row.id, score: score, matched: matched };
      }
    });
    var ranked = Object.keys(best).map(function (k) { return best[k]; })
      .filter(function (s) { return s.matched.length; })
      .sort(function (a, b) { return b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0); });
    var first = [], later = [], seenFamily = {};
    ranked.forEach(function (item) {
      var f = family(item.key);
      seenFamily[f] = (seenFamily[f] || 0) + 1;
      (seenFamily[f] <= w.PER_RULE ? first : later).push(item);
    });
    var hits = first.concat(later).map(function (item) {
      var stored = self.engine.getStoredFields(item.id);
      return { id: item.id, n: stored.n, k: stored.k === "e" ? "r" : stored.k, u: stored.u, t: stored.t,
               score: item.score, matched: item.matched };
    });
    return { hits: hits, recognised: read.recognised };
  };

  // answers.py Relevance: BM25 of a text for the question's concepts, each stem weighted
  // as its concept's share (EXPANSION for its other words) times its idf.
  Reader.prototype.relevance = function (asked) {
    var self = this, w = this.weights, weights = {};
    asked.forEach(function (c) {
      c.forms.forEach(function (form, at) {
        var share = at === 0 ? 1 : w.EXPANSION;
        form.forEach(function (part) {
          var n = self.frequency(part);
          var idf = Math.log(1 + (self.documents - n + 0.5) / (n + 0.5));
          weights[part] = Math.max(weights[part] || 0, share * Math.max(0, idf));
        });
      });
    });
    var parts = Object.keys(weights).filter(function (p) { return self.postings.has(p); });
    return function (id, glossary) {
      var length = self.lengths[id] || 0, sum = 0;
      if (!length) return 0;
      var norm = w.BM25_K1 * (1 - w.BM25_B + w.BM25_B * length / w.AVERAGE_STEMS);
      parts.forEach(function (part) {
        var found = self.postings.get(part);
        var count = (found.x && found.x[id]) || 0;
        if (glossary) count += (found.h && found.h[id]) || 0;
        if (count) sum += weights[part] * count * (w.BM25_K1 + 1) / (count + norm);
      });
      return sum;
    };
  };

  global.RulesKbReading = { Reader: Reader, term: term, tokens: tokens, capitalised: capitalised };
})(window);
