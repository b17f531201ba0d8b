// The quick guides behind the sidebar's help link, one per interface language. They are data, not
// pages: scripts/quick-guides.ts draws them into PDFs at build time (vite.config.ts, quickGuides), so
// the app's bundle never carries this text. The labels quoted here are the app's own (src/i18n/*.json);
// change them together. Only characters Helvetica's WinAnsi encoding can draw are allowed (the script
// refuses anything else), which covers the accents of Spanish and French.
import type { Locale } from '../i18n/locale';

export type QuickGuideSection = { heading: string; paragraphs: string[] };

export type QuickGuide = {
  title: string;
  subtitle: string;
  /** The footer of each page; {page} and {total} are replaced. */
  pageLabel: string;
  sections: QuickGuideSection[];
};

const EN: QuickGuide = {
  title: 'Paraph quick guide',
  subtitle:
    'Upload a PDF, ask the right people to review and sign it, and sign it yourself with a qualified electronic signature. This guide walks you through every step.',
  pageLabel: 'Page {page} of {total}',
  sections: [
    {
      heading: '1. Signing in and out',
      paragraphs: [
        'Open Paraph in your browser and choose “Sign in”. Enter the e-mail address and password of your account. You come back to the page you wanted to open, or to your documents.',
        'For your security a session ends after 12 hours, or as soon as the server no longer accepts it. You then see “Your session has expired”: sign in again and carry on. What you were typing in a sign flow form is restored.',
        'To sign out, open the user menu at the top of the sidebar (your name) and choose “Log out”. On a shared computer, always sign out when you are done.',
      ],
    },
    {
      heading: '2. Finding your way',
      paragraphs: [
        'The sidebar holds the “Upload” button, your document lists, your connections, help and the language selector. On a narrow screen it folds away: open it with the menu button at the top left.',
        'The badge beside “To Do” counts the documents waiting for you; the badge beside “Connections” counts the people who asked to connect with you. Both update by themselves every few seconds.',
      ],
    },
    {
      heading: '3. Uploading a document',
      paragraphs: [
        'Choose “Upload”, then drag a PDF into the window or choose one from your computer. Only PDF files are accepted, one at a time, up to 50 MB. A bar shows the progress; when it is done, the new document is selected in your list.',
        'Paraph checks the file itself: a file that is not a real PDF, an empty file or a password-protected PDF is refused and nothing is kept. Remove the password and upload the file again.',
        'Right after the upload Paraph prepares the page images. This can take a few minutes for a long document; meanwhile the viewer says that the document is still being processed, and the page updates by itself.',
      ],
    },
    {
      heading: '4. Your lists and the archive',
      paragraphs: [
        'All shows every document you own or take part in. To Do holds the documents you must review or sign now. In Progress holds those waiting for other people. Done holds the signed documents. Failed holds those refused, rejected, cancelled or that could not be read. Uploaded holds your documents that have no sign flow yet.',
        'Search by file name, owner or participant, and sort by newest or oldest first. Lists show 20 documents a page. Click a row to see its details beside the list (status, reviewers, signatories, a preview); hold Ctrl (Cmd on a Mac) to select several rows. On a phone, a tap opens the details page.',
        'Archive a document to take it out of your lists: only your lists change, the other participants still see it. You find it again under Archive. Delete removes a document you own for everyone (a sign flow still running is cancelled first); a participant can delete a document for themselves once they have nothing left to review or sign.',
        'Every document has an auto-deletion date, one year after the upload unless your organisation chose otherwise. Signed documents can be downloaded from the row menu or from the details page.',
      ],
    },
    {
      heading: '5. Starting a sign flow',
      paragraphs: [
        'Open a document you uploaded and choose “Start a sign flow”. Under “Add people”, type at least 3 characters of a name, an e-mail address or a sign group, choose “Reviewer” or “Signatory”, and pick a suggestion with the mouse or the arrow keys and Enter. You can add yourself too. To invite someone who has no account yet, type their whole e-mail address.',
        'Reviewers read the document first and approve or reject it; the signatories are asked to sign only once every reviewer has approved. Tick “Sign in this order” if the signatories must sign one after the other; drag them (or use the arrow buttons) to set the order. Without an order you may instead require a minimum number of signatures.',
        'Add a comment for the participants if you wish (at most 1024 characters) and choose “Start the sign flow”. While the flow is in progress you can still edit it or cancel it from the document page.',
      ],
    },
    {
      heading: '6. Placing the signatures',
      paragraphs: [
        'Under “Where the signatures go”, choose “On the pages” to put each signature exactly where it belongs, or “On a signature page” to add a page with all the signatures at the start, at the end or after a page you name.',
        'On the pages: choose “Place the signatures”, click the page where a signature goes and choose the signatory. Drag a placed signature to move it, click it to change or remove it, and use the page buttons to move through the document. The keyboard works too: the arrow keys move the selected signature and Enter places it. Choose “Save the signatures” when every signatory has a place.',
        'A signature that has been signed can no longer be moved or removed.',
      ],
    },
    {
      heading: '7. Reviewing and signing',
      paragraphs: [
        'When a document waits for you, it is in To Do. As a reviewer, open it and choose “Approve” or “Reject”. As a signatory, choose “Sign”; if you do not want to sign, choose “Refuse to sign” and give a reason if you like.',
        'On the sign screen, choose your smart card (its level is shown beside it), fill in the place where you sign or use “Locate me”, and add a reason if you wish. Your default location from the settings is filled in for you. If the sender placed your signature, “Preview where you sign” shows where it goes; on your own document you choose the place yourself. Then choose “Continue”.',
        'Confirm the signature in your identity app on your phone or tablet: scan the code on the screen, or open the link there. If no notification arrives, choose “Resend Confirmation”. You may close the window: the signature is still applied once you confirm, and the document page shows it. Each account plan allows a number of signatures a month; the app tells you when the limit is reached.',
        'Every signed PDF carries a digital signature for each signer. From the document page you can download the audit trail: every step of the document, with its time, the person and the fingerprint of the file.',
      ],
    },
    {
      heading: '8. Connections and sign groups',
      paragraphs: [
        'Connections are the people you work with. Under Connections choose “Add a connection”, type their e-mail address and send the request; someone without an account yet receives an invitation. Requests sent to you can be accepted or rejected; requests you sent can be cancelled until they are answered.',
        'A sign group is a named set of connections, such as “Board” or “Sales team”. Under “Sign groups” choose “Create a group”, give it a name and add at least one member. In a sign flow, type the group name to add all its members at once.',
      ],
    },
    {
      heading: '9. Settings and language',
      paragraphs: [
        'Open Settings from the user menu to choose your language and your default signing location, then choose “Save”. The language changes at once and is kept in your profile, so it follows you to other devices.',
        'You can also switch between English, Spanish and French with the language selector in the sidebar.',
      ],
    },
    {
      heading: '10. Getting help',
      paragraphs: [
        'The sidebar links to this guide, to the frequently asked questions and to our support team by e-mail. When you write to us, mention the name of the document and what you were doing, but never send your password.',
      ],
    },
  ],
};

const ES: QuickGuide = {
  title: 'Guía rápida de Paraph',
  subtitle:
    'Suba un PDF, pida a las personas adecuadas que lo revisen y lo firmen, y fírmelo usted mismo con una firma electrónica cualificada. Esta guía le acompaña paso a paso.',
  pageLabel: 'Página {page} de {total}',
  sections: [
    {
      heading: '1. Iniciar y cerrar sesión',
      paragraphs: [
        'Abra Paraph en su navegador y elija “Iniciar sesión”. Introduzca la dirección de correo electrónico y la contraseña de su cuenta. Volverá a la página que quería abrir o a sus documentos.',
        'Por su seguridad, una sesión termina a las 12 horas, o en cuanto el servidor deja de aceptarla. Verá entonces que su sesión ha caducado: inicie sesión de nuevo y continúe. Lo que estaba escribiendo en un formulario de flujo de firma se recupera.',
        'Para salir, abra el menú de usuario en la parte superior de la barra lateral (su nombre) y elija “Cerrar sesión”. En un ordenador compartido, cierre siempre la sesión al terminar.',
      ],
    },
    {
      heading: '2. Orientarse',
      paragraphs: [
        'La barra lateral contiene el botón “Subir”, sus listas de documentos, sus contactos, la ayuda y el selector de idioma. En una pantalla estrecha se pliega: ábrala con el botón de menú de la parte superior izquierda.',
        'El distintivo junto a “Pendientes” cuenta los documentos que le esperan; el distintivo junto a “Contactos” cuenta las personas que le han pedido conectar. Ambos se actualizan solos cada pocos segundos.',
      ],
    },
    {
      heading: '3. Subir un documento',
      paragraphs: [
        'Elija “Subir” y arrastre un PDF a la ventana o elíjalo en su ordenador. Solo se aceptan archivos PDF, de uno en uno, de hasta 50 MB. Una barra muestra el progreso; al terminar, el documento nuevo queda seleccionado en su lista.',
        'Paraph comprueba el propio archivo: un archivo que no es un PDF real, un archivo vacío o un PDF protegido con contraseña se rechaza y no se guarda nada. Quite la contraseña y vuelva a subir el archivo.',
        'Justo después de la subida, Paraph prepara las imágenes de las páginas. En un documento largo puede tardar unos minutos; mientras tanto, el visor indica que el documento todavía se está procesando, y la página se actualiza sola.',
      ],
    },
    {
      heading: '4. Sus listas y el archivo',
      paragraphs: [
        'Todos muestra cada documento del que usted es propietario o participante. Pendientes reúne los documentos que debe revisar o firmar ahora. En curso reúne los que esperan a otras personas. Completados reúne los documentos firmados. Fallidos reúne los rechazados, cancelados o que no se pudieron leer. Subidos reúne sus documentos que aún no tienen flujo de firma.',
        'Busque por nombre de archivo, propietario o participante, y ordene por los más recientes o los más antiguos primero. Las listas muestran 20 documentos por página. Haga clic en una fila para ver sus detalles junto a la lista (estado, revisores, firmantes, una vista previa); mantenga pulsada la tecla Ctrl (Cmd en un Mac) para seleccionar varias filas. En un teléfono, un toque abre la página de detalles.',
        'Archive un documento para sacarlo de sus listas: solo cambian sus listas, los demás participantes lo siguen viendo. Lo encontrará en Archivo. Eliminar borra para todos un documento del que usted es propietario (un flujo de firma en curso se cancela antes); un participante puede eliminar un documento solo para sí mismo cuando ya no tiene nada que revisar ni firmar.',
        'Cada documento tiene una fecha de eliminación automática, un año después de la subida salvo que su organización haya elegido otra cosa. Los documentos firmados se pueden descargar desde el menú de la fila o desde la página de detalles.',
      ],
    },
    {
      heading: '5. Iniciar un flujo de firma',
      paragraphs: [
        'Abra un documento que haya subido y elija “Iniciar un flujo de firma”. En “Añadir personas”, escriba al menos 3 caracteres de un nombre, una dirección de correo electrónico o un grupo de firma, elija “Revisor” o “Firmante” y seleccione una sugerencia con el ratón o con las flechas y Intro. También puede añadirse usted mismo. Para invitar a alguien que aún no tiene cuenta, escriba su dirección de correo completa.',
        'Los revisores leen el documento primero y lo aprueban o lo rechazan; a los firmantes solo se les pide firmar cuando todos los revisores han aprobado. Marque “Firmar en este orden” si los firmantes deben firmar uno tras otro; arrástrelos (o use los botones de flecha) para fijar el orden. Sin orden, puede exigir en su lugar un número mínimo de firmas.',
        'Si lo desea, añada un comentario para los participantes (como máximo 1024 caracteres) y elija “Iniciar el flujo de firma”. Mientras el flujo está en curso, todavía puede modificarlo o cancelarlo desde la página del documento.',
      ],
    },
    {
      heading: '6. Colocar las firmas',
      paragraphs: [
        'En “Dónde van las firmas”, elija “En las páginas” para poner cada firma exactamente en su sitio, o “En una página de firmas” para añadir una página con todas las firmas al principio, al final o después de la página que indique.',
        'En las páginas: elija “Colocar las firmas”, haga clic en la página donde va una firma y elija el firmante. Arrastre una firma colocada para moverla, haga clic en ella para cambiarla o quitarla, y use los botones de página para recorrer el documento. El teclado también sirve: las flechas mueven la firma seleccionada e Intro la coloca. Elija “Guardar las firmas” cuando cada firmante tenga su sitio.',
        'Una firma ya firmada no se puede mover ni quitar.',
      ],
    },
    {
      heading: '7. Revisar y firmar',
      paragraphs: [
        'Cuando un documento le espera, está en Pendientes. Como revisor, ábralo y elija “Aprobar” o “Rechazar”. Como firmante, elija “Firmar”; si no desea firmar, elija “Rechazar la firma” e indique un motivo si lo desea.',
        'En la pantalla de firma, elija su tarjeta inteligente (su nivel aparece a su lado), indique el lugar donde firma o use “Localizarme”, y añada un motivo si lo desea. Su ubicación predeterminada de la configuración se rellena sola. Si el remitente colocó su firma, “Ver dónde firma” le muestra dónde va; en su propio documento, usted elige el sitio. Después elija “Continuar”.',
        'Confirme la firma en su aplicación de identidad en su teléfono o tableta: escanee el código de la pantalla o abra allí el enlace. Si no llega ninguna notificación, elija “Reenviar confirmación”. Puede cerrar la ventana: la firma se aplica igualmente cuando usted confirma, y la página del documento la muestra. Cada plan de cuenta permite un número de firmas al mes; la aplicación le avisa cuando se alcanza el límite.',
        'Cada PDF firmado lleva una firma digital por firmante. Desde la página del documento puede descargar el registro de auditoría: cada paso del documento, con su hora, la persona y la huella del archivo.',
      ],
    },
    {
      heading: '8. Contactos y grupos de firma',
      paragraphs: [
        'Los contactos son las personas con las que trabaja. En Contactos elija “Añadir un contacto”, escriba su dirección de correo y envíe la solicitud; quien aún no tiene cuenta recibe una invitación. Las solicitudes que recibe se pueden aceptar o rechazar; las que envió se pueden cancelar mientras no tengan respuesta.',
        'Un grupo de firma es un conjunto de contactos con nombre, como “Dirección” o “Equipo de ventas”. En “Grupos de firma” elija “Crear un grupo”, póngale un nombre y añada al menos un miembro. En un flujo de firma, escriba el nombre del grupo para añadir a todos sus miembros a la vez.',
      ],
    },
    {
      heading: '9. Configuración e idioma',
      paragraphs: [
        'Abra Configuración desde el menú de usuario para elegir su idioma y su ubicación de firma predeterminada, y elija “Guardar”. El idioma cambia al momento y se guarda en su perfil, de modo que le acompaña en otros dispositivos.',
        'También puede cambiar entre inglés, español y francés con el selector de idioma de la barra lateral.',
      ],
    },
    {
      heading: '10. Obtener ayuda',
      paragraphs: [
        'La barra lateral enlaza con esta guía, con las preguntas frecuentes y con nuestro equipo de soporte por correo electrónico. Cuando nos escriba, indique el nombre del documento y lo que estaba haciendo, pero no envíe nunca su contraseña.',
      ],
    },
  ],
};

const FR: QuickGuide = {
  title: 'Guide rapide de Paraph',
  subtitle:
    'Téléversez un PDF, demandez aux bonnes personnes de le relire et de le signer, et signez-le vous-même avec une signature électronique qualifiée. Ce guide vous accompagne pas à pas.',
  pageLabel: 'Page {page} sur {total}',
  sections: [
    {
      heading: '1. Se connecter et se déconnecter',
      paragraphs: [
        'Ouvrez Paraph dans votre navigateur et choisissez « Se connecter ». Saisissez l’adresse e-mail et le mot de passe de votre compte. Vous revenez à la page que vous vouliez ouvrir, ou à vos documents.',
        'Pour votre sécurité, une session prend fin au bout de 12 heures, ou dès que le serveur ne l’accepte plus. Vous voyez alors que votre session a expiré : reconnectez-vous et poursuivez. Ce que vous saisissiez dans un formulaire de circuit de signature est restauré.',
        'Pour vous déconnecter, ouvrez le menu utilisateur en haut de la barre latérale (votre nom) et choisissez « Se déconnecter ». Sur un ordinateur partagé, déconnectez-vous toujours quand vous avez terminé.',
      ],
    },
    {
      heading: '2. Se repérer',
      paragraphs: [
        'La barre latérale contient le bouton « Téléverser », vos listes de documents, vos contacts, l’aide et le sélecteur de langue. Sur un écran étroit, elle se replie : ouvrez-la avec le bouton de menu en haut à gauche.',
        'Le badge à côté de « À faire » compte les documents qui vous attendent ; celui à côté de « Contacts » compte les personnes qui vous ont demandé d’entrer en contact. Tous deux se mettent à jour seuls toutes les quelques secondes.',
      ],
    },
    {
      heading: '3. Téléverser un document',
      paragraphs: [
        'Choisissez « Téléverser », puis faites glisser un PDF dans la fenêtre ou choisissez-en un sur votre ordinateur. Seuls les fichiers PDF sont acceptés, un à la fois, jusqu’à 50 Mo. Une barre montre la progression ; à la fin, le nouveau document est sélectionné dans votre liste.',
        'Paraph vérifie le fichier lui-même : un fichier qui n’est pas un vrai PDF, un fichier vide ou un PDF protégé par mot de passe est refusé et rien n’est conservé. Retirez le mot de passe et téléversez de nouveau le fichier.',
        'Juste après le téléversement, Paraph prépare les images des pages. Pour un long document, cela peut prendre quelques minutes ; pendant ce temps, la visionneuse indique que le document est encore en cours de traitement, et la page se met à jour d’elle-même.',
      ],
    },
    {
      heading: '4. Vos listes et les archives',
      paragraphs: [
        'Tous montre chaque document dont vous êtes propriétaire ou participant. À faire regroupe les documents que vous devez relire ou signer maintenant. En cours regroupe ceux qui attendent d’autres personnes. Terminés regroupe les documents signés. En échec regroupe ceux qui ont été refusés, rejetés, annulés ou qui n’ont pas pu être lus. Téléversés regroupe vos documents qui n’ont pas encore de circuit de signature.',
        'Recherchez par nom de fichier, propriétaire ou participant, et triez du plus récent au plus ancien ou l’inverse. Les listes affichent 20 documents par page. Cliquez sur une ligne pour voir ses détails à côté de la liste (statut, relecteurs, signataires, un aperçu) ; maintenez la touche Ctrl (Cmd sur un Mac) pour sélectionner plusieurs lignes. Sur un téléphone, un appui ouvre la page de détails.',
        'Archivez un document pour le retirer de vos listes : seules vos listes changent, les autres participants le voient toujours. Vous le retrouvez dans Archives. Supprimer efface pour tout le monde un document dont vous êtes propriétaire (un circuit de signature en cours est d’abord annulé) ; un participant peut supprimer un document pour lui seul une fois qu’il n’a plus rien à relire ni à signer.',
        'Chaque document a une date de suppression automatique, un an après le téléversement sauf si votre organisation en a décidé autrement. Les documents signés se téléchargent depuis le menu de la ligne ou depuis la page de détails.',
      ],
    },
    {
      heading: '5. Démarrer un circuit de signature',
      paragraphs: [
        'Ouvrez un document que vous avez téléversé et choisissez « Démarrer un circuit de signature ». Sous « Ajouter des personnes », tapez au moins 3 caractères d’un nom, d’une adresse e-mail ou d’un groupe de signature, choisissez « Relecteur » ou « Signataire », puis sélectionnez une suggestion à la souris ou avec les flèches et Entrée. Vous pouvez aussi vous ajouter vous-même. Pour inviter une personne qui n’a pas encore de compte, tapez son adresse e-mail complète.',
        'Les relecteurs lisent d’abord le document et l’approuvent ou le rejettent ; les signataires ne sont sollicités qu’une fois que tous les relecteurs ont approuvé. Cochez « Signer dans cet ordre » si les signataires doivent signer l’un après l’autre ; faites-les glisser (ou utilisez les boutons fléchés) pour fixer l’ordre. Sans ordre, vous pouvez plutôt exiger un nombre minimum de signatures.',
        'Ajoutez si vous le souhaitez un commentaire pour les participants (1024 caractères au plus) et choisissez « Démarrer le circuit de signature ». Tant que le circuit est en cours, vous pouvez encore le modifier ou l’annuler depuis la page du document.',
      ],
    },
    {
      heading: '6. Placer les signatures',
      paragraphs: [
        'Sous « Emplacement des signatures », choisissez « Sur les pages » pour mettre chaque signature exactement à sa place, ou « Sur une page de signatures » pour ajouter une page réunissant toutes les signatures au début, à la fin ou après la page de votre choix.',
        'Sur les pages : choisissez « Placer les signatures », cliquez sur la page à l’endroit d’une signature et choisissez le signataire. Faites glisser une signature placée pour la déplacer, cliquez dessus pour la modifier ou la retirer, et utilisez les boutons de page pour parcourir le document. Le clavier fonctionne aussi : les flèches déplacent la signature sélectionnée et Entrée la place. Choisissez « Enregistrer les signatures » quand chaque signataire a sa place.',
        'Une signature déjà apposée ne peut plus être déplacée ni retirée.',
      ],
    },
    {
      heading: '7. Relire et signer',
      paragraphs: [
        'Quand un document vous attend, il se trouve dans À faire. En tant que relecteur, ouvrez-le et choisissez « Approuver » ou « Rejeter ». En tant que signataire, choisissez « Signer » ; si vous ne voulez pas signer, choisissez « Refuser de signer » et donnez un motif si vous le souhaitez.',
        'Sur l’écran de signature, choisissez votre carte à puce (son niveau est indiqué à côté), indiquez le lieu où vous signez ou utilisez « Me localiser », et ajoutez un motif si vous le souhaitez. Votre lieu par défaut des paramètres est rempli pour vous. Si l’expéditeur a placé votre signature, « Voir où vous signez » vous montre où elle va ; sur votre propre document, vous choisissez l’emplacement vous-même. Choisissez ensuite « Continuer ».',
        'Confirmez la signature dans votre application d’identité sur votre téléphone ou votre tablette : scannez le code affiché à l’écran, ou ouvrez-y le lien. Si aucune notification n’arrive, choisissez « Renvoyer la confirmation ». Vous pouvez fermer la fenêtre : la signature est tout de même apposée dès que vous confirmez, et la page du document l’affiche. Chaque formule d’abonnement permet un nombre de signatures par mois ; l’application vous prévient quand la limite est atteinte.',
        'Chaque PDF signé porte une signature numérique par signataire. Depuis la page du document, vous pouvez télécharger la piste d’audit : chaque étape du document, avec son heure, la personne et l’empreinte du fichier.',
      ],
    },
    {
      heading: '8. Contacts et groupes de signature',
      paragraphs: [
        'Les contacts sont les personnes avec qui vous travaillez. Dans Contacts, choisissez « Ajouter un contact », tapez son adresse e-mail et envoyez la demande ; une personne qui n’a pas encore de compte reçoit une invitation. Les demandes reçues peuvent être acceptées ou rejetées ; celles que vous avez envoyées peuvent être annulées tant qu’elles sont sans réponse.',
        'Un groupe de signature est un ensemble nommé de contacts, par exemple « Direction » ou « Équipe commerciale ». Dans « Groupes de signature », choisissez « Créer un groupe », donnez-lui un nom et ajoutez au moins un membre. Dans un circuit de signature, tapez le nom du groupe pour ajouter tous ses membres d’un coup.',
      ],
    },
    {
      heading: '9. Paramètres et langue',
      paragraphs: [
        'Ouvrez Paramètres depuis le menu utilisateur pour choisir votre langue et votre lieu de signature par défaut, puis choisissez « Enregistrer ». La langue change aussitôt et est conservée dans votre profil : elle vous suit sur vos autres appareils.',
        'Vous pouvez aussi passer de l’anglais à l’espagnol ou au français avec le sélecteur de langue de la barre latérale.',
      ],
    },
    {
      heading: '10. Obtenir de l’aide',
      paragraphs: [
        'La barre latérale renvoie vers ce guide, vers les questions fréquentes et vers notre équipe d’assistance par e-mail. Quand vous nous écrivez, indiquez le nom du document et ce que vous faisiez, mais n’envoyez jamais votre mot de passe.',
      ],
    },
  ],
};

export const QUICK_GUIDES: Record<Locale, QuickGuide> = { en: EN, es: ES, fr: FR };
