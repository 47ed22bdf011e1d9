// The dashboard's one script: the chapter slider, passages loaded when opened, and a reload
// when memory changes (a commit by any process). Pages work without it, only less live. Its
// words are the page's (data- attributes of <body>), in the language the page was rendered in.
(function () {
  "use strict";
  const range = document.getElementById("as-of");
  const number = document.getElementById("as-of-number");
  if (range && number) {
    range.addEventListener("input", () => { number.value = range.value; });
    range.addEventListener("change", () => { number.value = range.value; range.form.submit(); });
    number.addEventListener("change", () => { range.value = number.value; });
  }

  document.querySelectorAll("details.evidence").forEach((details) => {
    details.addEventListener("toggle", async () => {
      if (!details.open || details.dataset.loaded) return;
      details.dataset.loaded = "1";
      const target = details.querySelector(".passage");
      const params = new URLSearchParams({
        chapter: details.dataset.chapter,
        quote: details.dataset.quote,
        as_of: new URLSearchParams(location.search).get("as_of") || "",
      });
      try {
        const answer = await fetch(document.body.dataset.passageUrl + "?" + params.toString());
        const data = await answer.json();
        target.textContent = data.passage || document.body.dataset.passageNone;
      } catch (error) {
        target.textContent = document.body.dataset.passageFailed;
      }
    });
  });

  // A page answering a POST (a refused rename) says its own address: reloading it, by hand or
  // on a commit, then shows the page again instead of asking the POST's URL with a GET.
  if (document.body.dataset.pageUrl) history.replaceState(null, "", document.body.dataset.pageUrl);

  // Live refresh over server-sent events, connected only while the page is visible: a browser
  // allows few connections per host, and background tabs must not hold them. A tab shown again
  // asks from its own sequence number, so a commit made while it was hidden reloads it at once.
  const seq = document.body.dataset.seq;
  const live = document.getElementById("live");
  let source = null;
  function connect() {
    if (source || document.hidden || !window.EventSource || seq === undefined) return;
    source = new EventSource(document.body.dataset.eventsUrl + "?seq=" + encodeURIComponent(seq));
    source.addEventListener("open", () => live && live.classList.add("on"));
    source.addEventListener("error", () => live && live.classList.remove("on"));
    source.addEventListener("commit", () => {
      // Stay on the newest chapter if the page was showing the newest one.
      const url = new URL(location.href);
      const latest = range ? range.max : null;
      if (latest && url.searchParams.get("as_of") === latest) url.searchParams.delete("as_of");
      disconnect();
      location.replace(url.toString());
    });
  }
  function disconnect() {
    if (!source) return;
    source.close();
    source = null;
    if (live) live.classList.remove("on");
  }
  document.addEventListener("visibilitychange", () => (document.hidden ? disconnect() : connect()));
  // A page that submits a form is on its way to the answer: a write commits before its answer
  // comes back, and reloading on that commit would abort the answer (the notice lost, or a
  // refusal page reloaded at the write's own URL). The answer's page listens afresh.
  document.addEventListener("submit", disconnect);
  window.addEventListener("pagehide", disconnect);
  connect();
})();
