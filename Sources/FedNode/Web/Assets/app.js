// FedNode web app: small progressive enhancements. Every action also works without this file.
(function () {
  "use strict";

  // Likes in place: send the form, then show the new state and count.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.classList.contains("confirm") && !window.confirm(form.getAttribute("data-confirm") || "Are you sure?")) {
      event.preventDefault();
      return;
    }
    if (!form.classList.contains("like-form") || !window.fetch) return;
    event.preventDefault();
    fetch(form.action, { method: "POST", body: new FormData(form), headers: { "X-FedNode-Fetch": "1" }, credentials: "same-origin" })
      .then(function (response) { if (!response.ok) throw new Error("like failed"); return response.json(); })
      .then(function (state) { updateLike(form, state.liked, state.count); })
      .catch(function () { form.submit(); });
  });

  function updateLike(form, liked, count) {
    var button = form.querySelector("button");
    var label = form.querySelector(".label");
    form.action = form.action.replace(/\/(like|unlike)$/, liked ? "/unlike" : "/like");
    button.classList.toggle("liked", liked);
    button.setAttribute("aria-pressed", liked ? "true" : "false");
    if (label) label.textContent = liked ? "Unlike" : "Like";
    var card = form.closest(".card");
    var counter = card && card.querySelector(".like-count");
    if (counter) counter.textContent = String(count);
  }

  // Photo previews before upload.
  document.addEventListener("change", function (event) {
    var input = event.target;
    var target = input.getAttribute && input.getAttribute("data-preview");
    if (!target || !input.files || !input.files[0]) return;
    var image = document.getElementById(target);
    if (!image) return;
    image.src = URL.createObjectURL(input.files[0]);
    image.hidden = false;
  });

  // Share: the Web Share API where there is one, else copy the link.
  document.querySelectorAll("[data-share]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var url = new URL(button.getAttribute("data-share"), location.href).href;
      if (navigator.share) { navigator.share({ url: url }).catch(function () {}); return; }
      if (navigator.clipboard) navigator.clipboard.writeText(url).then(function () { toast("Link copied"); });
    });
  });

  // Carousel dots follow the scroll position.
  document.querySelectorAll(".carousel").forEach(function (carousel) {
    var dots = carousel.parentElement.querySelectorAll(".dots span");
    if (!dots.length) return;
    carousel.addEventListener("scroll", function () {
      var index = Math.round(carousel.scrollLeft / carousel.clientWidth);
      dots.forEach(function (dot, i) { dot.classList.toggle("on", i === index); dot.classList.toggle("off", i !== index); });
    }, { passive: true });
  });

  function toast(text) {
    var live = document.getElementById("live");
    if (!live) return;
    live.textContent = text;
    live.classList.add("show");
    setTimeout(function () { live.classList.remove("show"); }, 3000);
  }

  // Live updates (server-sent events from the streaming hub): a "new posts" banner on the
  // home feed and the unread count in the navigation bar.
  if (window.EventSource && document.querySelector(".nav-links a[href='/notifications']")) {
    var source = new EventSource("/web/stream");
    source.addEventListener("update", function () {
      var banner = document.getElementById("new-posts");
      if (banner) banner.hidden = false;
    });
    source.addEventListener("notification", function () {
      var badge = document.getElementById("unread-badge");
      if (badge) {
        var count = (parseInt(badge.textContent, 10) || 0) + 1;
        badge.textContent = String(count);
        badge.setAttribute("aria-label", count + " unread");
        badge.hidden = false;
      }
      var banner = document.getElementById("new-notifications");
      if (banner) banner.hidden = false;
      toast("New notification");
    });
  }
})();
