/**
 * Types @types/pdfkit lacks for pdfkit 0.20: the standard font metrics modules a non-Node runtime
 * registers with `registerStdFonts`.
 */
declare module 'pdfkit/standard-fonts/*' {
  /** The metrics of one standard font. */
  const font: object;
  export default font;
}
