// Table talk: its own socket on the play route (?chat=only: chat frames, no board frames).
// Frames in: {"type":"chat", messages, history?} and {"type":"chat_hidden", id}; out:
// {"type":"chat", text}, {"type":"chat_mute", author, muted}, {"type":"chat_setting",
// spectatorsApart}. Every text is put in the page with textContent: what people type is
// shown as text, never read as markup.
(function () {
  "use strict";
  var panel = document.getElementById("chat");
  if (!panel) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var log = $("chat-log"), form = $("chat-form"), input = $("chat-text");
  var socket = null, delay = 1000, you = null, maxChars = 500;
  var names = {};   // author id -> name, for the muted list
  var muted = [];

  var REFUSALS = {
    chat_rate_limited: "You are writing fast: wait a few seconds.",
    too_long: "That message is too long.",
    empty: "The message is empty.",
    sign_in: "Sign in to write.",
    chat_closed: "The game is over: only its players write now.",
    rate_limited: "Too many messages at once; wait a moment."
  };

  function url() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + location.host + panel.getAttribute("data-ws");
  }

  function connect() {
    socket = new WebSocket(url());
    socket.onopen = function () { delay = 1000; $("chat-status").textContent = ""; };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "chat") { received(message); }
      else if (message.type === "chat_hidden") { drop(message.id); }
      else if (message.type === "error") { refused(message); }
    };
    socket.onclose = function (event) {
      socket = null;
      if (event.code === 4404) { $("chat-status").textContent = "no such game"; return; }
      if (event.code === 4429) { $("chat-status").textContent = "chat not connected: " + (event.reason || "refused"); return; }
      $("chat-status").textContent = "chat disconnected — reconnecting…";
      setTimeout(connect, delay);
      delay = Math.min(30000, delay * 2);
    };
  }

  function send(data) {
    if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(data)); return true; }
    return false;
  }

  function received(frame) {
    if (frame.history) {
      you = frame.you; maxChars = frame.maxChars || maxChars; muted = frame.muted || [];
      while (log.firstChild) { log.removeChild(log.firstChild); }
      form.hidden = !frame.mayPost;
      $("chat-signin").hidden = frame.mayPost || you !== null;
      $("chat-setting").hidden = !frame.maySet;
      $("chat-apart").checked = !!frame.spectatorsApart;
      showMuted();
    }
    var atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    frame.messages.forEach(function (m) { log.appendChild(item(m)); });
    $("chat-empty").hidden = log.childNodes.length > 0;
    if (atBottom || frame.history) { log.scrollTop = log.scrollHeight; }
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function item(m) {
    names[m.authorId] = m.author;
    var li = el("li");
    li.setAttribute("data-id", String(m.id));
    li.appendChild(el("span", "chat-author", m.author));
    if (!m.player) { li.appendChild(el("span", "chat-tag", "(watching)")); }
    li.appendChild(el("span", "chat-text", m.text));
    if (you !== null && m.authorId !== you) {
      var button = el("button", "chat-mute", "mute");
      button.type = "button";
      button.setAttribute("aria-label", "Mute " + m.author + " for yourself");
      button.addEventListener("click", function () { send({ type: "chat_mute", author: m.authorId, muted: true }); });
      li.appendChild(button);
    }
    return li;
  }

  function drop(id) {
    var node = log.querySelector('li[data-id="' + Number(id) + '"]');
    if (node) { log.removeChild(node); }
    $("chat-empty").hidden = log.childNodes.length > 0;
  }

  function showMuted() {
    var box = $("chat-muted");
    while (box.firstChild) { box.removeChild(box.firstChild); }
    box.hidden = muted.length === 0;
    if (!muted.length) { return; }
    box.appendChild(el("span", "", "Muted by you: "));
    muted.forEach(function (id) {
      box.appendChild(el("span", "", (names[id] || "person " + id) + " "));
      var button = el("button", "chat-mute", "unmute");
      button.type = "button";
      button.addEventListener("click", function () { send({ type: "chat_mute", author: id, muted: false }); });
      box.appendChild(button);
    });
  }

  function refused(message) {
    var box = $("chat-refused");
    box.textContent = REFUSALS[message.code] || message.detail || "The chat refused that.";
    box.hidden = false;
    setTimeout(function () { box.hidden = true; }, 6000);
  }

  function count() {
    $("chat-count").textContent = input.value.length + " / " + maxChars;
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var text = input.value.trim();
    if (!text) { return; }
    if (send({ type: "chat", text: text })) { input.value = ""; count(); }
  });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); form.requestSubmit(); }
  });
  input.addEventListener("input", count);
  $("chat-apart").addEventListener("change", function () {
    send({ type: "chat_setting", spectatorsApart: $("chat-apart").checked });
  });
  count();
  connect();
})();
