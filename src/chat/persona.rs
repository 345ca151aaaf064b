//! The personas (docs/DESIGN.md §2.5): prompt modifiers a reader picks. `General` adds nothing.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "PersonaId"))]
pub enum Persona {
    #[default]
    General,
    Beginner,
    SoftwareEngineer,
    RoboticsStudent,
    AiResearcher,
}

impl Persona {
    /// Every persona a reader can pick: `General` first, then the four with a modifier.
    pub const ALL: [Persona; 5] = [
        Persona::General,
        Persona::Beginner,
        Persona::SoftwareEngineer,
        Persona::RoboticsStudent,
        Persona::AiResearcher,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Persona::General => "general",
            Persona::Beginner => "beginner",
            Persona::SoftwareEngineer => "software_engineer",
            Persona::RoboticsStudent => "robotics_student",
            Persona::AiResearcher => "ai_researcher",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Persona::General => "General",
            Persona::Beginner => "Beginner",
            Persona::SoftwareEngineer => "Software Engineer",
            Persona::RoboticsStudent => "Robotics Student",
            Persona::AiResearcher => "AI Researcher",
        }
    }

    /// The text added to the system prompt (docs/DESIGN.md §2.5).
    pub fn modifier(self) -> Option<&'static str> {
        match self {
            Persona::General => None,
            Persona::Beginner => Some("Explain concepts from first principles. Avoid jargon. Use simple analogies."),
            Persona::SoftwareEngineer => {
                Some("Use programming analogies. Assume familiarity with code, APIs, and software patterns.")
            }
            Persona::RoboticsStudent => {
                Some("Assume knowledge of kinematics and control theory. Focus on AI integration aspects.")
            }
            Persona::AiResearcher => {
                Some("Assume deep AI/ML knowledge. Focus on robotics-specific applications and challenges.")
            }
        }
    }

    /// The persona with this id; an unknown id is an error the caller reports.
    pub fn from_id(id: &str) -> Option<Persona> {
        Persona::ALL.into_iter().find(|p| p.id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_serde_uses_them() {
        for p in Persona::ALL {
            assert_eq!(Persona::from_id(p.id()), Some(p));
            assert_eq!(serde_json::to_string(&p).ok(), Some(format!("\"{}\"", p.id())));
        }
        assert_eq!(Persona::from_id("pirate"), None);
        assert_eq!(Persona::General.modifier(), None);
    }
}
