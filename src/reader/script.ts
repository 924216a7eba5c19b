import { OUTLINE_SCRIPT } from './outline-script.js';

/**
 * The reader's only script, inline and allowed by its hash: instant search, menus that close, and the copy
 * buttons of code blocks (shown only where the clipboard can be written; a shell session copies its commands,
 * which highlight.js marks after each prompt, without the prompts and the output). Typing in
 * the search box asks the site space's search page for its results as an HTML fragment (`?q=...&fragment=1`,
 * escaped by the server) and shows them under the box; Escape or an empty box hides them. Without it, the box
 * submits to the results page. Menus (section groups, the site space switcher) are <details> elements that
 * work without script; with it, opening one or clicking elsewhere or pressing Escape closes the others. The
 * outline follows the reader's position (outline-script.ts).
 */
export const READER_SCRIPT = `(function(){
function closeMenus(except){document.querySelectorAll('details.menu[open]').forEach(function(menu){if(menu!==except)menu.removeAttribute('open');});}
document.addEventListener('click',function(e){closeMenus(e.target.closest&&e.target.closest('details.menu'));});
document.addEventListener('keydown',function(e){if(e.key==='Escape')closeMenus(null);});
document.querySelectorAll('button.copy').forEach(function(b){if(!navigator.clipboard)return;b.hidden=false;b.onclick=function(){var c=b.parentNode.nextSibling.firstChild,s=c.querySelectorAll('.language-bash');navigator.clipboard.writeText(s.length?[].map.call(s,function(e){return e.textContent}).join('\\n'):c.textContent);};});
var form=document.querySelector('form.search');if(!form||!window.fetch)return;
var input=form.querySelector('input[name=q]');var panel=document.getElementById('instant');var timer=0;var asked=0;
function hide(){panel.hidden=true;panel.innerHTML='';}
input.addEventListener('input',function(){clearTimeout(timer);var q=input.value.trim();if(!q){hide();return;}
timer=setTimeout(function(){var n=++asked;fetch(form.action+'?q='+encodeURIComponent(q)+'&fragment=1',{credentials:'same-origin'}).then(function(r){return r.ok?r.text():'';}).then(function(text){if(n!==asked)return;panel.innerHTML=text;panel.hidden=!text;});},150);});
input.addEventListener('keydown',function(e){if(e.key==='Escape')hide();});
document.addEventListener('click',function(e){if(!form.contains(e.target)&&!panel.contains(e.target))hide();});
})();${OUTLINE_SCRIPT}`;

let digest: Promise<string> | undefined;

/** The CSP source of a script or style text: `'sha256-<base64>'`. */
export async function hashSource(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `'sha256-${btoa(binary)}'`;
}

/** The CSP source of the reader's script, computed once. */
export const scriptSource = (): Promise<string> => (digest ??= hashSource(READER_SCRIPT));
