// The picture of a node's neighbourhood on its page (decisis.web.views.neighbourhood, read
// from the JSON API): nodes coloured by type, superseded ones dimmed, supersedes edges
// dashed. Drawn on a canvas by cytoscape, so labels are text, never markup. The instance is
// kept on window.decisisGraph, and the container marked data-drawn once laid out.
(function () {
  "use strict";
  var COLOURS = {
    goal: "#1f6feb", decision: "#8250df", option: "#bf8700", action: "#1a7f37",
    outcome: "#cf222e", observation: "#57606a", revisit: "#0a7ea4"
  };
  var box = document.getElementById("graph");
  if (!box || typeof cytoscape !== "function") { return; }

  function name(node) {
    var text = node.key ? node.key + " · " + node.label : node.label;
    return text.length > 60 ? text.slice(0, 57) + "…" : text;
  }

  function elements(data) {
    var out = [];
    data.nodes.forEach(function (n) {
      var classes = [n.type, "status-" + n.status];
      if (n.centre) { classes.push("centre"); }
      out.push({ group: "nodes", classes: classes.join(" "),
        data: { id: n.id, name: name(n), type: n.type, status: n.status,
                colour: COLOURS[n.type] || "#57606a" } });
    });
    data.edges.forEach(function (e) {
      out.push({ group: "edges", classes: e.type + " state-" + e.state,
        data: { id: e.id, source: e.source, target: e.target, type: e.type,
                name: e.type === "supersedes" ? "supersedes (" + e.state + ")" : e.type } });
    });
    return out;
  }

  var STYLE = [
    { selector: "node", style: {
      "background-color": "data(colour)", "label": "data(name)", "color": "#1d2329",
      "font-size": 11, "text-wrap": "wrap", "text-max-width": 160, "text-valign": "bottom",
      "text-margin-y": 4, "width": 22, "height": 22, "text-background-color": "#fbfcfd",
      "text-background-opacity": 0.85, "text-background-padding": 2 } },
    { selector: "node.centre", style: {
      "width": 32, "height": 32, "border-width": 3, "border-color": "#1d2329",
      "font-weight": "bold" } },
    { selector: "node.status-superseded, node.status-rejected", style: {
      "opacity": 0.4 } },
    { selector: "edge", style: {
      "width": 2, "line-color": "#8c959f", "target-arrow-color": "#8c959f",
      "target-arrow-shape": "triangle", "curve-style": "bezier", "label": "data(name)",
      "font-size": 9, "color": "#57606a", "text-rotation": "autorotate",
      "text-background-color": "#ffffff", "text-background-opacity": 1 } },
    { selector: "edge.supersedes", style: {
      "line-style": "dashed", "line-color": "#cf222e", "target-arrow-color": "#cf222e",
      "target-arrow-shape": "vee", "width": 3, "color": "#a40e26" } },
    { selector: "edge.state-candidate", style: { "line-style": "dotted" } },
    { selector: "edge.state-rejected", style: { "opacity": 0.35 } }
  ];

  fetch(box.dataset.src, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (answer) {
      if (!answer.ok) { throw new Error("neighbourhood: HTTP " + answer.status); }
      return answer.json();
    })
    .then(function (data) {
      var cy = cytoscape({
        container: box, elements: elements(data), style: STYLE,
        layout: { name: "breadthfirst", directed: true, spacingFactor: 1.3, padding: 30 },
        wheelSensitivity: 0.2
      });
      cy.on("tap", "node", function (event) {
        var id = event.target.id();
        if (id !== data.centre) { window.location.href = "/nodes/" + encodeURIComponent(id); }
      });
      window.decisisGraph = cy;
      box.dataset.drawn = String(cy.nodes().length);
    })
    .catch(function (error) {
      box.textContent = "The picture could not be drawn: " + error.message;
      box.dataset.failed = "true";
    });
})();
