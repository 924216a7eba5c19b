import type { ApiMedia, ApiParameter, ApiReference, SchemaNode } from './model.js';

/**
 * Every description of a page model (CommonMark, as OpenAPI writes them), so that the links they hold can
 * be resolved as a page body's are: each description is read on its own, as the reader renders it.
 */

function* nodeTexts(node: SchemaNode): Generator<string> {
  if (node.description) yield node.description;
  for (const property of node.properties) yield* nodeTexts(property);
  if (node.items) yield* nodeTexts(node.items);
  if (node.additional) yield* nodeTexts(node.additional);
  for (const variant of node.composition?.variants ?? []) yield* nodeTexts(variant);
}

function* parameterTexts(parameter: ApiParameter): Generator<string> {
  if (parameter.description) yield parameter.description;
  yield* nodeTexts(parameter.schema);
}

function* mediaTexts(media: ApiMedia): Generator<string> {
  if (media.schema) yield* nodeTexts(media.schema);
}

/** The descriptions of a page model, in the order the page shows them. */
export function* referenceTexts(reference: ApiReference): Generator<string> {
  if (reference.description) yield reference.description;
  for (const scheme of reference.securitySchemes) if (scheme.description) yield scheme.description;
  for (const operation of reference.operations) {
    if (operation.description) yield operation.description;
    for (const parameter of operation.parameters) yield* parameterTexts(parameter);
    if (operation.requestBody?.description) yield operation.requestBody.description;
    for (const media of operation.requestBody?.contents ?? []) yield* mediaTexts(media);
    for (const response of operation.responses) {
      for (const header of response.headers) yield* parameterTexts(header);
      for (const media of response.contents) yield* mediaTexts(media);
    }
  }
}
