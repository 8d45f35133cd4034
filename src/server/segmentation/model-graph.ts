// Running U²-Netp at another input size than the 320×320 its file declares. The network itself
// takes any size: it is convolutions, max-pools, ReLUs, concatenations and additions, and every
// one of its 38 Resize nodes takes its target size from the shape of the tensor it is joined to
// (computed by Shape, Gather, Slice and Concat nodes), never from a constant. Only the declared
// shapes of the graph's input (`input.1`, [1, 3, 320, 320]) and of its two fixed outputs
// ([1, 1, 320, 320]) say 320, and onnxruntime refuses an input that disagrees with them. So the
// model file stays as vendored (its SHA-256 is checked on every load) and only those declared
// numbers are changed in memory before the session is created.
//
// ONNX files are protobuf: ModelProto.graph (field 7) → GraphProto.input (11) / output (12) →
// ValueInfoProto.type (2) → TypeProto.tensor_type (1) → shape (2) → dim (1) → dim_value (1).
// A dim_value is a varint; any side from 128 to 16383 takes two bytes, as 320 does, so the
// numbers are overwritten in place and no enclosing length changes.

/** The side the model was trained and exported at. */
export const declaredSide = 320

type Field = { field: number; wire: number; start: number; end: number; valueStart: number }

function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0
  let scale = 1
  let position = at
  for (;;) {
    if (position >= bytes.length) throw new Error('truncated varint')
    const byte = bytes[position++] as number
    value += (byte & 0x7f) * scale
    if ((byte & 0x80) === 0) return { value, next: position }
    scale *= 128
    if (scale > 2 ** 63) throw new Error('varint too long')
  }
}

/** The fields of one protobuf message between `start` and `end`. */
function fieldsOf(bytes: Uint8Array, start: number, end: number): Field[] {
  const fields: Field[] = []
  let position = start
  while (position < end) {
    const fieldStart = position
    const key = readVarint(bytes, position)
    position = key.next
    const field = Math.floor(key.value / 8)
    const wire = key.value % 8
    let valueStart = position
    if (wire === 0) position = readVarint(bytes, position).next
    else if (wire === 1) position += 8
    else if (wire === 5) position += 4
    else if (wire === 2) {
      const length = readVarint(bytes, position)
      valueStart = length.next
      position = length.next + length.value
    } else throw new Error(`unsupported protobuf wire type ${wire}`)
    if (position > end) throw new Error('truncated protobuf field')
    fields.push({ field, wire, start: fieldStart, end: position, valueStart })
  }
  return fields
}

const child = (bytes: Uint8Array, parent: Field, field: number) =>
  fieldsOf(bytes, parent.valueStart, parent.end).filter((f) => f.field === field && f.wire === 2)

/** A declared dimension: its number and where that number's varint sits, or a symbolic name. */
type Dim = { value: number; at: number; next: number } | null

/** The name and declared dimensions of each of the graph's inputs (11) or outputs (12). */
function declaredShapes(bytes: Uint8Array, graph: Field, field: 11 | 12) {
  return child(bytes, graph, field).map((info) => {
    const nameField = child(bytes, info, 1)[0]
    const name = nameField
      ? new TextDecoder().decode(bytes.subarray(nameField.valueStart, nameField.end))
      : ''
    const dims: Dim[] = []
    for (const type of child(bytes, info, 2))
      for (const tensor of child(bytes, type, 1))
        for (const shape of child(bytes, tensor, 2))
          for (const dim of child(bytes, shape, 1)) {
            const value = fieldsOf(bytes, dim.valueStart, dim.end).find((f) => f.field === 1 && f.wire === 0)
            if (!value) dims.push(null)
            else {
              const { value: n, next } = readVarint(bytes, value.valueStart)
              dims.push({ value: n, at: value.valueStart, next })
            }
          }
    return { name, dims }
  })
}

/**
 * A copy of the U²-Netp model whose declared input and fixed outputs are `side`×`side` instead
 * of 320×320. Throws when the file is not laid out as that model is (a single [1, 3, 320, 320]
 * input), so a different model is never silently run at a size it was not checked at.
 */
export function withInputSide(model: Uint8Array, side: number): Uint8Array {
  if (!Number.isInteger(side) || side < 128 || side > 16383) {
    throw new Error(`the model's input side must be a whole number from 128 to 16383, not ${side}`)
  }
  const copy = new Uint8Array(model)
  if (side === declaredSide) return copy
  const graph = fieldsOf(copy, 0, copy.length).find((f) => f.field === 7 && f.wire === 2)
  if (!graph) throw new Error('the model file has no graph')
  const inputs = declaredShapes(copy, graph, 11)
  const input = inputs[0]
  const isExpectedInput =
    inputs.length === 1 &&
    input !== undefined &&
    input.dims.length === 4 &&
    [1, 3, declaredSide, declaredSide].every((n, i) => input.dims[i]?.value === n)
  if (!isExpectedInput)
    throw new Error(`the model's input is not one [1, 3, ${declaredSide}, ${declaredSide}] tensor`)
  const spatial: NonNullable<Dim>[] = []
  for (const shape of [input, ...declaredShapes(copy, graph, 12)]) {
    if (shape.dims.length !== 4) continue
    for (const dim of shape.dims.slice(2)) if (dim?.value === declaredSide) spatial.push(dim)
  }
  for (const dim of spatial) {
    if (dim.next - dim.at !== 2) throw new Error('unexpected encoding of a declared dimension')
    copy[dim.at] = (side & 0x7f) | 0x80
    copy[dim.at + 1] = side >> 7
  }
  return copy
}

/** The declared [N, C, H, W] of the model's input, for tests and checks. */
export function declaredInputShape(model: Uint8Array): (number | null)[] {
  const graph = fieldsOf(model, 0, model.length).find((f) => f.field === 7 && f.wire === 2)
  if (!graph) throw new Error('the model file has no graph')
  return (declaredShapes(model, graph, 11)[0]?.dims ?? []).map((dim) => dim?.value ?? null)
}
