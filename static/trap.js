// A fault in the app's WebAssembly (out of memory, or any trap): no panic hook sees it, and
// the instance cannot go on. Show the error panel with what the app was doing and a link to
// the view it had before (both written by src/ui/mod.rs's before_long_work), never a page
// that silently starts over. Plain DOM: the WebAssembly is gone by then.
'use strict';
(function () {
  function fault(error) {
    if (!(error instanceof WebAssembly.RuntimeError)) return;
    var panel = document.getElementById('error-panel');
    if (!panel || !panel.hidden) return;
    var doing = panel.getAttribute('data-doing');
    var link = panel.getAttribute('data-link');
    var memory = /memory|unreachable/i.test(String(error.message));
    panel.querySelector('h2').textContent = 'Fencing Lab has stopped';
    panel.querySelector('p').textContent =
      'Its WebAssembly ' + (memory ? 'ran out of memory or hit a fault' : 'hit a fault') +
      (doing ? ' while ' + doing : '') + ', and cannot go on. Reload the page to start again.';
    document.getElementById('error-message').textContent = 'WebAssembly: ' + error.message;
    if (link && link !== '#') {
      var p = document.createElement('p');
      var a = document.createElement('a');
      // The same address (embed options included; the tests' `trap` flag left out) at the link.
      var search = location.search.replace(/^\?/, '').split('&')
        .filter(function (p) { return p && p !== 'trap'; }).join('&');
      var target = location.pathname + (search ? '?' + search : '') + link;
      a.href = target;
      a.textContent = 'Reopen the run you had before';
      a.addEventListener('click', function (ev) {
        ev.preventDefault();
        // A change of the hash alone would not reload the page, and this one cannot go on.
        if (location.pathname + location.search === target.split('#')[0]) {
          location.hash = link;
          location.reload();
        } else {
          location.href = target;
        }
      });
      p.appendChild(a);
      panel.appendChild(p);
    }
    panel.hidden = false;
  }
  window.addEventListener('error', function (e) { fault(e.error); });
  window.addEventListener('unhandledrejection', function (e) { fault(e.reason); });
})();
