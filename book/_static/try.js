// The in-browser page: Pyodide's core runtime and the exactstats wheel, both served beside the page
// (tools/browser.py puts them in try/). With ?report in the address, the page runs the code once and
// posts its output to /__result, which the test's local server reads (tests/test_browser.py).
(async () => {
  const box = document.getElementById("es-try");
  if (!box) return;
  const out = document.getElementById("es-out");
  const run = document.getElementById("es-run");
  const code = document.getElementById("es-code");
  const base = new URL(box.dataset.runtime, document.baseURI);
  const report = new URLSearchParams(location.search).has("report");
  const post = (body) => fetch("/__result", { method: "POST", body: JSON.stringify(body) });
  const show = (text) => { out.textContent += text + "\n"; };
  let pyodide;
  try {
    pyodide = await loadPyodide({ indexURL: base.href, stdout: show, stderr: show });
    const manifest = await (await fetch(new URL("manifest.json", base))).json();
    const wheel = await (await fetch(new URL(manifest.wheel, base))).arrayBuffer();
    const site = pyodide.runPython("import site; site.getsitepackages()[0]");
    pyodide.unpackArchive(wheel, "wheel", { extractDir: site });
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
  } catch (err) {
    out.textContent = "Python did not load: " + err;
    if (report) post({ error: String(err) });
    return;
  }
  const execute = async () => {
    out.textContent = "";
    run.disabled = true;
    try {
      await pyodide.runPythonAsync(code.value);
    } catch (err) {
      show(String(err));
    }
    run.disabled = false;
    if (report) post({ output: out.textContent });
  };
  run.addEventListener("click", execute);
  out.textContent = "Python is ready: edit the code and press Run.\n";
  run.disabled = false;
  if (report) execute();
})();
