// The panel's header: its title (which names the dialog), the persona picker (shown when the
// site offers more than one; the choice is remembered in localStorage), "New conversation"
// and close.
import React, { useCallback, useState } from 'react';
import { strings } from './strings';
import { Icon } from './icons';
import { readStorage, writeStorage } from './storage';

const PERSONA_KEY = 'lectern:persona:v1';

/**
 * The persona answers are written for: the reader's last choice if the site still offers
 * it, else the site's default. Returns [persona, choose(id)].
 * @param {import('docusaurus-plugin-lectern').ClientOptions} config
 * @returns {[string, (id: string) => void]}
 */
export function usePersona(config) {
  const [persona, setPersona] = useState(() => {
    const saved = readStorage('localStorage', PERSONA_KEY, null);
    return config.personas.includes(saved) ? saved : config.defaultPersona;
  });
  const choose = useCallback((/** @type {string} */ id) => {
    setPersona(id);
    writeStorage('localStorage', PERSONA_KEY, id);
  }, []);
  return [persona, choose];
}

/**
 * Props: titleId (the heading's id), config (the plugin's client options), persona,
 * onPersona(id), personaHelp (the persona's prompt modifier, as a tooltip), canReset (there
 * is a conversation to clear), onNewConversation(), onClose().
 * @param {{titleId: string, config: import('docusaurus-plugin-lectern').ClientOptions, persona: string, onPersona: (id: string) => void, personaHelp?: string, canReset: boolean, onNewConversation: () => void, onClose: () => void}} props
 */
export default function Header({ titleId, config, persona, onPersona, personaHelp, canReset, onNewConversation, onClose }) {
  const s = strings();
  return (
    <header className="lectern-header">
      <h2 id={titleId} className="lectern-header__title">
        {s.title}
      </h2>
      {config.personas.length > 1 && (
        <label className="lectern-persona" title={personaHelp}>
          <span className="lectern-sr-only">{s.persona}</span>
          <select value={persona} onChange={(e) => onPersona(e.target.value)}>
            {config.personas.map((id) => (
              <option key={id} value={id}>
                {s[id] ?? id}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="button" className="lectern-icon-button" aria-label={s.newConversation} title={s.newConversation} onClick={onNewConversation} disabled={!canReset}>
        <Icon name="plus" />
      </button>
      <button type="button" className="lectern-icon-button" aria-label={s.closeLabel} title={s.closeLabel} onClick={() => onClose()}>
        <Icon name="close" />
      </button>
    </header>
  );
}
