// The histogram graph (seed histogram part 2): one quad covering the viewport, with texcoord
// running 0..1 left to right and bottom to top. No vertex buffers: the corners come from
// gl_VertexID (two triangles, 6 vertices).
out vec2 texcoord;

void main() {
  const vec2 corners[6] = vec2[6](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0),
                                  vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0));
  vec2 xy = corners[gl_VertexID];
  texcoord = xy;
  gl_Position = vec4(xy * 2.0 - 1.0, 0.0, 1.0);
}
