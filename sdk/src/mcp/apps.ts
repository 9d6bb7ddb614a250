// Inline UI for hosts that render MCP Apps (docs/api.md#mcp-apps): a tool's `_meta.ui.resourceUri` names a
// `ui://taskmarket/…` HTML resource the host shows in a sandboxed frame and hands the tool's result. The
// answer itself is unchanged — the API's JSON as text — so a host without MCP Apps shows what it always
// did. Each page is one self-contained document: its script and style inline, a CSP that allows no
// origin at all (no fetch, no image, no font from anywhere), and the one way out a link to the
// funding or confirmation page, opened by the host in the person's browser (ui/open-link).

/** The MCP Apps resource MIME type (ext-apps RESOURCE_MIME_TYPE). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

export const MISSION_CARD_URI = 'ui://taskmarket/mission-card.html';
export const OFFERINGS_URI = 'ui://taskmarket/offerings.html';

/**
 * Which tool shows which page. A tool not (yet) in TOOLS is skipped where the tools are listed, so a
 * name here attaches once that tool exists (find_offerings and order_offering come with the offerings).
 * The releases answer the mission released or, beyond the token's release limit, the confirmation the
 * person decides (docs/api.md#confirmations): the card shows either, the second with its link.
 */
export const TOOL_UI: Readonly<Record<string, string>> = {
  get_mission: MISSION_CARD_URI,
  post_mission: MISSION_CARD_URI,
  order_offering: MISSION_CARD_URI,
  approve_mission: MISSION_CARD_URI,
  award_bounty: MISSION_CARD_URI,
  answer_settlement_offer: MISSION_CARD_URI,
  find_offerings: OFFERINGS_URI,
};

/** The tool listing's `_meta` for a tool with a page (both keys: the current one and the one older hosts read). */
export const toolUiMeta = (name: string): Record<string, unknown> | undefined => {
  const uri = TOOL_UI[name];
  return uri ? { ui: { resourceUri: uri }, 'ui/resourceUri': uri } : undefined;
};

// No origin is allowed anything: the page's own inline script and style only.
const CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; " +
  "connect-src 'none'; font-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'";

/** The resource's `_meta.ui`: no domain of any kind (ext-apps McpUiResourceCsp: empty is none), no border. */
const RESOURCE_UI_META = {
  ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true },
};

// In the page's templates below, a `\` at the end of a line is a line continuation: neither it nor the
// newline is in the string, so long rules and statements wrap here and reach the page as one line. Any
// other backslash the page's code needs is written twice (`\\d` reaches a pattern as `\d`), and four
// times in a string the page hands to RegExp: there a lone `\s` would be the letter s.
const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#5b6470;--line:#d9dee4;--bg:#fff;--accent:#0a66c2;--ok:#1a7f37;\
--warn:#9a6700}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9aa4ae;--line:#30363d;--bg:#0d1117;--accent:#4493f8;\
--ok:#3fb950;--warn:#d29922}}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;\
color:var(--fg);background:var(--bg)}
main{padding:14px 16px;max-width:760px}h1{font-size:17px;margin:0 0 6px}h2{font-size:13px;text-transform:uppercase;\
letter-spacing:.04em;color:var(--muted);margin:14px 0 6px}
.row{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:baseline}.pill{display:inline-block;padding:1px 8px;\
border-radius:999px;border:1px solid var(--line);font-size:12px;font-weight:600}p{overflow-wrap:anywhere}
.status-OPEN,.status-COMPLETED,.status-APPROVED{color:var(--ok);border-color:var(--ok)}.status-AWAITING_FUNDING,\
.status-SUBMITTED,.status-CONTESTED,.status-DISPUTED,.status-PENDING{color:var(--warn);border-color:var(--warn)}
.muted{color:var(--muted)}ul{margin:0;padding-left:0;list-style:none}li{padding:4px 0;\
border-top:1px solid var(--line)}li:first-child{border-top:0}
.check{display:inline-block;width:1.3em}button{font:inherit;font-weight:600;color:#fff;background:var(--accent);\
border:0;border-radius:6px;padding:7px 14px;cursor:pointer;margin-top:12px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:10px}.card{\
border:1px solid var(--line);border-radius:8px;padding:10px}
`;

// The host protocol (MCP Apps, JSON-RPC 2.0 over postMessage to the parent), as much of it as a page
// that only shows a result needs: initialize, the tool's input and result, its size, opening a link.
const PROTOCOL = `
const pending=new Map();let nextId=1;
const send=(m)=>window.parent.postMessage({jsonrpc:'2.0',...m},'*');
const request=(method,params)=>new Promise((resolve,reject)=>{const id=nextId++;pending.set(id,{resolve,reject});\
send({id,method,params});});
const notify=(method,params)=>send({method,params});
let onResult=()=>{};
window.addEventListener('message',(event)=>{
  if(event.source!==window.parent)return;const m=event.data;if(!m||m.jsonrpc!=='2.0')return;
  if(m.id!==undefined&&!m.method){const p=pending.get(m.id);if(p){pending.delete(m.id);\
m.error?p.reject(m.error):p.resolve(m.result);}return;}
  if(m.method==='ui/notifications/tool-result')onResult(m.params);
  else if(m.method==='ui/resource-teardown'&&m.id!==undefined)send({id:m.id,result:{}});
  else if(m.id!==undefined)send({id:m.id,error:{code:-32601,message:'Method not found'}});
});
const reportSize=()=>notify('ui/notifications/size-changed',{width:document.documentElement.scrollWidth,\
height:document.documentElement.scrollHeight});
new ResizeObserver(reportSize).observe(document.documentElement);
const openLink=(url)=>request('ui/open-link',{url});
const start=async()=>{await request('ui/initialize',{appInfo:{name:'taskmarket',version:'1'},appCapabilities:{},\
protocolVersion:'2026-01-26'});notify('ui/notifications/initialized',{});};
const texts=(result)=>(result&&result.content||[]).filter((c)=>c.type==='text').map((c)=>c.text);
const el=(tag,attrs,...children)=>{const e=document.createElement(tag);for(const [k,v] of Object.entries(attrs||{}\
))k==='class'?e.className=v:e.setAttribute(k,v);for(const c of children)e.append(c);return e;};
const usdc=(units)=>{try{const n=BigInt(units);return (n/1000000n).toString()+'.'+(n%1000000n).toString().padStart(6,\
'0').replace(/0{1,4}$/,'')+' USDC';}catch{return units;}};
const when=(iso)=>{const d=new Date(iso);return isNaN(d)?iso:d.toUTCString().replace(/:\\d\\d GMT$/,' UTC');};
const parse=(text)=>{try{return JSON.parse(text);}catch{return undefined;}};
`;

const MISSION_SCRIPT = `
const NEXT={AWAITING_FUNDING:'The person funds it at the link below; then it is OPEN.',\
OPEN:'An agent accepts it (accept_mission) or applies.',\
ACCEPTED:'The agent delivers it (submit_work) before the deadline.',\
SUBMITTED:'The client approves (approve_mission) or contests (contest_mission) before the review deadline.',\
CONTESTED:'The agent delivers again, or it goes to dispute.',DISPUTED:'An operator resolves it.',\
COMPLETED:'Done: the agent claims the reward (claim_earnings).',CANCELLED:'Nothing more: the reward went back.'};
// docs/api.md#confirmations: a release waiting for the person — the 202's { confirmation: { id, url, expiresAt } },
// or on a 2026-07-28 retry the confirmation as GET /api/confirmations/{id} answers it (its status decided).
const confirmationOf=(v)=>!v?undefined:v.confirmation&&typeof v.confirmation==='object'?v.confirmation:\
v.action&&v.mission&&typeof v.url==='string'?v:undefined;
const UUID=/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const renderConfirmation=(root,c)=>{
  const pending=!c.status||c.status==='PENDING';
  root.append(el('h1',{},pending?'Payment waiting for your yes':'Payment '+String(c.status).toLowerCase()));
  const row=el('div',{class:'row'});if(c.status)row.append(el('span',{class:'pill status-'+c.status},c.status));\
if(c.mission&&c.mission.title)row.append(el('span',{},c.mission.title));if(c.amount)row.append(el('span',{},\
usdc(c.amount)));if(pending&&c.expiresAt)row.append(el('span',{class:'muted'},'Until '+when(c.expiresAt)));\
root.append(row);
  root.append(el('p',{},!pending?(c.status==='APPROVED'?'Approved: the payment was released.':\
'Nothing was released.'):'Nothing was released yet: open the page, signed in with your wallet, to see the \
mission, the amount and who is paid, and approve or deny it.'));
  // Only the link the API wrote, and only that confirmation's own page, /confirmations/{its id}.
  const own=UUID.test(c.id||'')&&/^https?:\\/\\/\\S+$/.test(c.url||'')&&c.url.endsWith('/confirmations/'+c.id);
  if(pending&&own){const b=el('button',{type:'button'},'Review the payment');b.addEventListener('click',\
()=>openLink(c.url));root.append(b,el('p',{class:'muted'},'Opens in your browser: '+c.url));}
  reportSize();
};
const render=(result)=>{
  const all=texts(result);const root=document.getElementById('root');root.replaceChildren();
  const confirmation=all.map(parse).map(confirmationOf).find(Boolean);
  if(confirmation){renderConfirmation(root,confirmation);return;}
  const mission=all.map(parse).find((v)=>v&&v.id&&v.status);
  if(!mission){root.append(el('p',{class:'muted'},all.join('\\n')||'No mission in this answer.'));return;}
  root.append(el('h1',{},mission.title),el('div',{class:'row'},el('span',{class:'pill status-'+mission.status},\
mission.status.replace('_',' ')),el('span',{},'Reward '+usdc(mission.reward)),el('span',{class:'muted'},\
'Deadline '+when(mission.deadline))));
  const verdicts=new Map((mission.verdicts||[]).map((v)=>[v.criterion,v.met]));
  const self=new Map(((mission.submission&&mission.submission.selfCheck)||[]).map((v)=>[v.criterion,v.met]));
  for(const c of (mission.submission&&mission.submission.checks)||[])self.set(c.criterion,c.passed);
  if((mission.criteria||[]).length){root.append(el('h2',{},'Criteria'));const ul=el('ul',{});\
for(const c of mission.criteria){const met=verdicts.has(c.number)?verdicts.get(c.number):self.get(c.number);\
ul.append(el('li',{},el('span',{class:'check','aria-label':met===undefined?'not checked':met?'met':'not met'},\
met===undefined?'○':met?'✓':'✗'),c.number+'. '+c.text));}root.append(ul);}
  if(Array.isArray(mission.milestones)&&mission.milestones.length){root.append(el('h2',{},'Milestones'));\
const ul=el('ul',{});for(const m of mission.milestones)ul.append(el('li',{},\
(m.title||m.name||('Milestone '+(m.number||'')))+' — '+usdc(m.amount||m.reward||'0')+(m.status?' · '+m.status:'')));\
root.append(ul);}
  // docs/api.md#next-actions: what this caller may do now, as the API says; the status's usual next step
  // only from a server that gives no actions.
  root.append(el('h2',{},'Next'));if(Array.isArray(mission.actions)){if(!mission.actions.length)root.append(\
el('p',{class:'muted'},'Nothing for you to do now.'));else{const ul=el('ul',{});for(const a of mission.actions)\
ul.append(el('li',{},a.action+(a.tool?' ('+a.tool+')':'')+(a.until?' until '+when(a.until):'')));root.append(ul);}}\
else root.append(el('p',{},NEXT[mission.status]||''));
  // Only a link the API wrote: the answer's funding URL, or the server's own note after it (never the
  // mission's text, which another user wrote), and only this mission's funding page.
  const fund=new RegExp('https?://[^\\\\s]+/missions/'+mission.id+'/fund(?=[\\\\s.,]|$)');
  const link=mission.status==='AWAITING_FUNDING'?((mission.funding&&mission.funding.url)||((all.slice(1).join(' ')\
.match(fund)||[])[0])):undefined;
  if(link&&fund.test(link)){const label='Fund it';const b=el('button',{type:'button'},label);\
b.addEventListener('click',()=>openLink(link));root.append(b,el('p',{class:'muted'},'Opens in your browser: '+link));}
  reportSize();
};
onResult=render;start();
`;

const OFFERINGS_SCRIPT = `
const render=(result)=>{
  const all=texts(result);const page=all.map(parse).find((v)=>v&&(Array.isArray(v.items)||Array.isArray(v)));
  const items=page?(Array.isArray(page)?page:page.items):[];const root=document.getElementById('root');\
root.replaceChildren(el('h1',{},'Offerings'));
  if(!items.length){root.append(el('p',{class:'muted'},page?'No offerings match.':all.join('\\n')));reportSize();\
return;}
  const grid=el('div',{class:'grid'});
  for(const o of items){const price=o.price||o.reward||o.amount;grid.append(el('div',{class:'card'},el('strong',{},\
o.title||o.name||o.id),el('div',{class:'muted'},[o.category,\
o.slaHours?'delivered within '+o.slaHours+' h':null].filter(Boolean).join(' · ')),\
el('div',{},price?usdc(price):''),el('div',{class:'muted'},(o.description||'').slice(0,160))));}
  root.append(grid);reportSize();
};
onResult=render;start();
`;

const page = (title: string, script: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta http-equiv="Content-Security-Policy" content="${CSP}">` +
  `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>` +
  `<style>${STYLE}</style></head><body><main id="root"><p class="muted">Loading…</p></main>` +
  `<script>${PROTOCOL}${script}</script></body></html>`;

export interface UiResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  html: string;
  _meta: typeof RESOURCE_UI_META;
}

export const UI_RESOURCES: readonly UiResource[] = [
  {
    uri: MISSION_CARD_URI,
    name: 'mission-card',
    title: 'Mission card',
    description:
      "A mission's status, reward, deadline, criteria, milestones, next step and its funding or confirmation link",
    mimeType: APP_MIME_TYPE,
    html: page('Mission', MISSION_SCRIPT),
    _meta: RESOURCE_UI_META,
  },
  {
    uri: OFFERINGS_URI,
    name: 'offerings',
    title: 'Offerings',
    description: 'A list of offerings: title, category, price, delivery',
    mimeType: APP_MIME_TYPE,
    html: page('Offerings', OFFERINGS_SCRIPT),
    _meta: RESOURCE_UI_META,
  },
];

/** resources/list's answer. */
export const listedResources = () =>
  UI_RESOURCES.map(({ uri, name, title, description, mimeType, _meta }) => ({
    uri,
    name,
    title,
    description,
    mimeType,
    _meta,
  }));

/** resources/read's answer, or undefined for a URI not ours. */
export function readResource(uri: string) {
  const resource = UI_RESOURCES.find((r) => r.uri === uri);
  if (!resource) return undefined;
  return { contents: [{ uri, mimeType: resource.mimeType, text: resource.html, _meta: resource._meta }] };
}
