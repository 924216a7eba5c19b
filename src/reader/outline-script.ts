/**
 * The part of the reader's one script that makes the outline follow the reader's position: on scroll (once
 * a frame at most) the outline's link to the last heading above the sticky header's bottom gets
 * `aria-current="true"` (the last heading once the page is scrolled to its end). Without script the
 * outline is a list of links still.
 */
export const OUTLINE_SCRIPT = `(function(){
var d=document,w=window,p=[].slice.call(d.querySelectorAll('aside.outline a')).map(function(a){return[a,d.getElementById(decodeURIComponent(a.hash.slice(1)))];}).filter(function(x){return x[1];});
if(!p.length)return;var c=null,q=0,h=d.querySelector('header.site');
function u(){q=0;var y=(h?h.offsetHeight:0)+24,f=p[0],i=0;
if(w.scrollY>0&&w.innerHeight+w.scrollY>=d.documentElement.scrollHeight-2)f=p[p.length-1];else for(;i<p.length&&p[i][1].getBoundingClientRect().top<=y;i++)f=p[i];
if(f[0]!==c){if(c)c.removeAttribute('aria-current');c=f[0];c.setAttribute('aria-current','true');}}
w.addEventListener('scroll',function(){if(!q){q=1;requestAnimationFrame(u);}},{passive:true});u();
})();`;
