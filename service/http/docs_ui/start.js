// Hearthlog's /docs: Swagger UI on the document this server serves (service/http/api/docs_page.py).
// No validator badge: it would send the document to validator.swagger.io.
window.ui = SwaggerUIBundle({
  url: document.getElementById("swagger-ui").dataset.url,
  dom_id: "#swagger-ui",
  validatorUrl: null,
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
});
