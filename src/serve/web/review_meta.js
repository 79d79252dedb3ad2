// FeedbackMeta (seed 000 §2) as this tab measures it: the timings from the modal on screen to the
// first interaction and to the decision, revisits (openings of the same version in this tab's
// session), the device type, the fields modified (from collect()), the scroll depth (from
// review_artifact.js), and concurrentModals: the review modals open in other tabs, counted over a
// BroadcastChannel. Mixed into the modal (review.js), so `this` is the modal.
import {newId} from './common.js';

// Every tab with a modal open answers presence queries and pings while it stays open; a tab that
// has not pinged for PRESENCE_TTL_MS is taken as gone (closed without saying so).
const PRESENCE_PING_MS = 2000;
const PRESENCE_TTL_MS = 5000;
const TAB_ID = newId();
const presence = new Map();  // tab id -> Date.now() of its last ping
let modalOpenHere = false;
let onPresenceChange = null;  // the open modal's display of the other tabs' modals
let channel = null;
if (typeof BroadcastChannel !== 'undefined') {
  channel = new BroadcastChannel('kaizen-modals');
  channel.onmessage = ({data}) => {
    if (!data || data.tab === TAB_ID) return;
    if (data.type === 'open' || data.type === 'here') presence.set(data.tab, Date.now());
    if (data.type === 'closed') presence.delete(data.tab);
    if (onPresenceChange) onPresenceChange();
    if ((data.type === 'query' || data.type === 'open') && modalOpenHere) {
      channel.postMessage({type: 'here', tab: TAB_ID});
    }
  };
  channel.postMessage({type: 'query', tab: TAB_ID});
  addEventListener('pagehide', () => {
    if (modalOpenHere) channel.postMessage({type: 'closed', tab: TAB_ID});
  });
}
function otherOpenModals() {
  const fresh = Date.now() - PRESENCE_TTL_MS;
  let n = 0;
  for (const seen of presence.values()) n += seen >= fresh ? 1 : 0;
  return n;
}

export const metaMethods = {
  // meta.revisits: how many times this version's modal was opened before in this tab's session.
  countRevisit() {
    const key = `kaizen.modalOpens.${this.wp.id}@${this.wp.version}`;
    this.revisits = Number(sessionStorage.getItem(key) || 0);
    sessionStorage.setItem(key, String(this.revisits + 1));
  },

  // The timings count from the modal on screen; the first pointer, key or input is the first
  // interaction.
  startTimings() {
    this.openedAt = performance.now();
    this.firstInteraction = null;
    for (const type of ['pointerdown', 'keydown', 'input']) {
      this.dialog.addEventListener(type, () => {
        if (this.firstInteraction === null) this.firstInteraction = performance.now();
      }, true);
    }
  },

  // This modal answers the other tabs and pings while open; its header shows theirs.
  startPresence() {
    modalOpenHere = true;
    onPresenceChange = () => this.showConcurrent();
    this.showConcurrent();
    this.presenceTimer = setInterval(() => this.showConcurrent(), PRESENCE_PING_MS);
    if (channel) {
      channel.postMessage({type: 'open', tab: TAB_ID});
      this.pinger =
          setInterval(() => channel.postMessage({type: 'here', tab: TAB_ID}), PRESENCE_PING_MS);
    }
  },

  stopPresence() {
    modalOpenHere = false;
    onPresenceChange = null;
    clearInterval(this.pinger);
    clearInterval(this.presenceTimer);
    if (channel) channel.postMessage({type: 'closed', tab: TAB_ID});
  },

  showConcurrent() {
    const n = otherOpenModals();
    this.concurrent.textContent = n ? `${n} other review${n === 1 ? '' : 's'} open in ` +
            `another tab.` :
                                      '';
  },

  // FeedbackMeta from what this tab measured (seed 000 §2).
  measure(modified) {
    const now = performance.now();
    const meta = {
      timeToDecisionMs: Math.round(now - this.openedAt),
      timeToFirstInteractionMs: Math.round((this.firstInteraction ?? now) - this.openedAt),
      revisits: this.revisits,
      deviceType: matchMedia('(pointer: coarse)').matches || innerWidth < 768 ? 'mobile' :
                                                                                'desktop',
      concurrentModals: otherOpenModals(),
      presentationFormat: this.format,
    };
    if (modified.length) meta.fieldsModified = modified;
    const sections = this.sectionsRead();
    if (sections) meta.sections = sections;
    // The pane's depth for the format on screen at submit; absent when the work never loaded.
    if (this.depth[this.format] !== undefined) {
      meta.scrollDepth = Math.round(this.depth[this.format] * 1000) / 1000;
    }
    return meta;
  },
};
