import { describe, expect, it } from 'vitest';
import { imageDimensions } from '../../src/core/content/images.js';
import { SVG_HEAD_BYTES, svgDimensions } from '../../src/core/content/svg-size.js';

/** SVG sizes for the reader's width and height: the root tag's absolute lengths, else its viewBox; nothing expanded. */

const size = (svg: string) => imageDimensions(new TextEncoder().encode(svg));

describe('SVG dimensions', () => {
  it('reads width and height in absolute units, else the viewBox, else one of them in the viewBox proportion', () => {
    expect(size('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"/>')).toEqual({ width: 120, height: 80 });
    expect(size("<svg width='12pt' height='1in'></svg>")).toEqual({ width: 16, height: 96 });
    expect(size('<svg width="2.54cm" height="10mm" viewBox="0 0 1 1">')).toEqual({ width: 96, height: 38 });
    expect(size('<svg viewBox="0 0 24 12">')).toEqual({ width: 24, height: 12 });
    expect(size('<svg viewBox="-5,-5,300,150" width="600">')).toEqual({ width: 600, height: 300 });
    expect(size('<svg width="100%" height="50%" viewBox="0 0 40 30">')).toEqual({ width: 40, height: 30 });
    expect(size('<svg height="2em" viewBox="0 0 40 30">')).toEqual({ width: 40, height: 30 });
  });

  it('skips a BOM, the XML declaration, comments and a doctype before the root tag', () => {
    const head = '\uFEFF<?xml version="1.0"?>\n<!-- <svg width="1" height="1"> -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n';
    expect(size(`${head}<svg width="64" height="32">`)).toEqual({ width: 64, height: 32 });
  });

  it('expands no entity: a doctype subset is skipped, and a size that names an entity counts as absent', () => {
    const bomb = `<!DOCTYPE svg [<!ENTITY a "1000"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>`;
    expect(size(`${bomb}<svg width="&b;" height="&b;">`)).toBeUndefined();
    expect(size(`${bomb}<svg width="&b;" height="10" viewBox="0 0 20 10">`)).toEqual({ width: 20, height: 10 });
    expect(size(`${bomb}<svg width="30" height="20">`)).toEqual({ width: 30, height: 20 });
  });

  it('gives none for what is not a sized SVG root, or lies beyond the head it reads', () => {
    for (const text of ['<html><svg width="10" height="10"></svg></html>', '<svg>', '<svg width="0" height="10">', '<svg width="10" height="-3">', '<svg viewBox="0 0 0 10">', '<svg width="9e9" height="1">', '<svg width="10" height="10"', '<!-- never closed <svg width="1" height="1">', '<svgx width="1" height="1">', 'plain text'])
      expect(size(text), text).toBeUndefined();
    const late = `<!-- ${'x'.repeat(SVG_HEAD_BYTES)} --><svg width="10" height="10">`;
    expect(svgDimensions(new TextEncoder().encode(late))).toBeUndefined();
  });
});
