// A form built from a game's options schema (GET /games/{game}: `options`, a JSON Schema with
// $defs). Each simple property gets a field: a choice for an enum, a number for an integer, a
// checkbox for a boolean, text for a string; a nullable one may be left at the game's default.
// Lists and objects (a practice table's scripted deal) go in the JSON box under "More options".

import { h, titled } from "./dom.js";

/** The schema's object of properties, its $ref followed. */
function root(schema) {
  const ref = schema.$ref?.replace("#/$defs/", "");
  return ref ? schema.$defs[ref] : schema;
}

/** A property's own type and whether it may be null (anyOf [X, null]). */
function shape(prop) {
  const options = prop.anyOf ?? [prop];
  const kinds = options.filter((o) => o.type !== "null");
  return { kind: kinds.length === 1 ? kinds[0] : null, nullable: options.length > kinds.length };
}

/** The form's fields for one game, and a function that reads the chosen options back. */
export function optionsForm(schema, idPrefix) {
  const object = root(schema);
  const fields = [];
  const readers = [];
  const complex = [];
  for (const [name, prop] of Object.entries(object.properties ?? {})) {
    const { kind, nullable } = shape(prop);
    const id = `${idPrefix}-${name}`;
    const label = h("label", { for: id }, titled(name));
    const help = prop.description ? h("small", { class: "help", id: `${id}-help` }, prop.description) : null;
    const described = help ? `${id}-help` : undefined;
    let input = null;
    let read = null;
    if (kind?.enum) {
      input = h("select", { id, "aria-describedby": described },
        nullable ? h("option", { value: "" }, "(default)") : null,
        kind.enum.map((v) => h("option", { value: v, selected: v === prop.default }, titled(v))));
      read = () => (input.value === "" ? undefined : input.value);
    } else if (kind?.type === "integer") {
      input = h("input", { id, type: "number", inputmode: "numeric", "aria-describedby": described,
        min: kind.minimum, max: kind.maximum, value: prop.default ?? "",
        placeholder: nullable ? "default" : "" });
      read = () => (input.value === "" ? undefined : Number(input.value));
    } else if (kind?.type === "boolean") {
      input = h("input", { id, type: "checkbox", checked: prop.default === true, "aria-describedby": described });
      read = () => input.checked;
    } else if (kind?.type === "string") {
      input = h("input", { id, type: "text", value: prop.default ?? "", "aria-describedby": described });
      read = () => (input.value === "" ? undefined : input.value);
    } else {
      complex.push(name);
      continue;
    }
    fields.push(h("div", { class: "field" }, label, input, help));
    readers.push([name, read]);
  }
  let extra = null;
  if (complex.length) {
    const id = `${idPrefix}-more`;
    extra = h("textarea", { id, rows: 2, placeholder: `{"${complex[0]}": ...}`, spellcheck: "false" });
    fields.push(h("details", { class: "field advanced" },
      h("summary", {}, "Advanced: a scripted deal"),
      h("p", { class: "help" }, "For practice and testing only: a JSON object that fixes the deal " +
        "(a practice match; the game's rules page says what each field holds). Leave it empty for a fair shuffle."),
      h("label", { for: id }, `JSON object with any of: ${complex.join(", ")}`), extra));
  }
  const read = () => {
    const options = extra?.value.trim() ? JSON.parse(extra.value) : {};
    for (const [name, reader] of readers) {
      const value = reader();
      if (value !== undefined) options[name] = value;
    }
    return options;
  };
  // A scripted deal makes the match a practice one (the server refuses a script elsewhere).
  const scripted = () => Boolean(extra?.value.trim());
  return { fields, read, scripted };
}
